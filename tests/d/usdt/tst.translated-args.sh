# A provider definition that translates its arguments (`: (int n, string
# q)`): args[] follow the translated list, reordered and with the string
# read from the program's memory; argN stay the native arguments.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
cat >prov.d <<'D'
provider xl { probe query(char *q, int n) : (int n, string q); };
D
cat >main.c <<'C'
#include <stdio.h>
#include "prov.h"
int main(void) {
  char query[32];
  for (int i = 0; i < 3; i++) {
    snprintf(query, sizeof query, "select %d", i);
    XL_QUERY(query, i * 10);
  }
  return 0;
}
C
$DTRACE -h -s prov.d -o prov.h && gcc -c main.c && $DTRACE -G -s prov.d -o prov.o main.o &&
  gcc -o main main.o prov.o || exit 1
$DTRACE -lv -n 'xl$target:::query' -c ./main | grep 'args\['
$DTRACE -q -c ./main -n 'xl$target:::query {
  printf("args[0] %d, args[1] \"%s\", arg1 %d\n", args[0], args[1], arg1); }'
