/* Fires every probe of myapp.d once, after saying whether one is enabled. */
#include <stdint.h>
#include <stdio.h>

#include "myapp.h"

static int counter = 7;

int main(int argc, char **argv) {
	const char *query = argc > 1 ? argv[1] : "select 1";
	int rows = argc + 41;

	printf("query-start enabled: %d\n", MYAPP_QUERY_START_ENABLED() ? 1 : 0);
	MYAPP_QUERY_START(query, rows);
	MYAPP_D_ASH((uintptr_t)&counter, 'x', -3, 1ULL << 40, -5L, "ash");
	MYAPP_DONE();
	MYAPP_MAPPED(rows, query);
	return 0;
}
