# USDT probes built with our dtrace -h / -G: probe names with "__" as "-",
# module and function from the object and its symbols, arguments typed as
# the provider declares them (args[1] a string), two sites of one probe,
# and the is-enabled semaphore true only while the probe is traced.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
cat >app.d <<'D'
provider app {
  probe request__start(int, char *);
  probe done();
};
D
cat >app.c <<'C'
#include <stdio.h>
#include <string.h>
#include "app.h"
static void handle(int id) {
  char name[16];
  snprintf(name, sizeof name, "req-%d", id);
  APP_REQUEST_START(id, name);
}
int main(void) {
  printf("enabled %d\n", APP_REQUEST_START_ENABLED() != 0);
  for (int i = 0; i < 2; i++) handle(i);
  APP_REQUEST_START(-1, (char *)"main");
  APP_DONE();
  return 0;
}
C
$DTRACE -h -s app.d && gcc -O1 -c app.c && $DTRACE -G -s app.d -o probes.o app.o &&
  gcc -o app app.o probes.o || exit 1
./app
$DTRACE -q -c ./app -n '
  app$target:::request-start { printf("%s:%s:%s %d %s\n", probemod, probefunc, probename, args[0], copyinstr(arg1)); }
  app$target:::done { printf("%s\n", probename); }' | sort
$DTRACE -l -n 'app$target:::' -c ./app | awk 'NR > 1 { print $2 ~ /^app[0-9]+$/, $3, $4, $5 }' | sort
