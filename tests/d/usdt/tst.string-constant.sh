# A USDT probe passing a string constant the program itself never reads:
# its page is not in the process's page tables until dtrace brings it in
# (probe context cannot fault pages in), so copyinstr() reads it.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
cat >prov.d <<'D'
provider strs { probe query(char *); };
D
cat >main.c <<'C'
#include "prov.h"
int main(void) {
  STRS_QUERY("a string constant in .rodata");
  return 0;
}
C
$DTRACE -h -s prov.d -o prov.h && gcc -O2 -c main.c && $DTRACE -G -s prov.d -o prov.o main.o &&
  gcc -o main main.o prov.o || exit 1
$DTRACE -q -c ./main -n 'strs$target:::query { printf("%s\n", copyinstr(arg0)); }'
