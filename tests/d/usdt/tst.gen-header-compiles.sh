# The header needs no other header and compiles warning-free as C89 to
# C17 and as C++, at every optimization, position-independent or not; a
# 32-bit compile gets 4-byte addresses and pointer sizes in its notes;
# with _DTRACE_VERSION 0 the macros leave nothing behind, yet every
# variable they name is used.
. ./gen-common.sh
cp "$USDT/gen-myapp.d" myapp.d
$DTRACE -h -s myapp.d || exit 1
cat > use.c <<'EOS'
#include "myapp.h"
#include "myapp.h" /* the include guard */
struct row { int n; };
static int counter;
int fire(const char *query, long delta) {
	int rows = 3;
	char letter = 'q';
	if (MYAPP_QUERY_START_ENABLED()) rows++;
	MYAPP_QUERY_START(query, rows);
	MYAPP_D_ASH((unsigned long)&counter, letter, -1, 1ULL << 40, delta, "s");
	MYAPP_DONE();
	MYAPP_MAPPED(rows, query);
	return rows;
}
EOS
cp use.c use.cc
check() {
  "$@" -Wall -Wextra -Werror -c -o use.o && echo "ok: ${*:1:$#-1}" | sed 's/ -o$//'
}
for std in c89 c99 gnu11 c17; do check gcc -std=$std -pedantic -O2 use.c; done
for opt in -O0 -O1 -O3 -Os "-O2 -fPIC" "-O2 -fPIE" "-O2 -fno-pic -mcmodel=large"; do
  check gcc $opt use.c
done
for std in c++11 c++17 c++20; do check g++ -std=$std -O2 -Wold-style-cast use.cc; done
check g++ -O0 -fPIC use.cc
# Every site has its note, whatever the compiler did with it.
gcc -O3 -c use.c -o use.o && notes use.o | awk '{ print "-O3:", $2 }'
gcc -m32 -O2 -Wall -Werror -c use.c -o use32.o || exit 1
notes use32.o | awk '{
  printf "-m32: %s, %d-digit addresses, sizes", $2, length($3) - 2
  for (i = 6; i <= NF; i++) { sub(/@.*/, "", $i); printf " %s", $i }
  print ""
}'
gcc -D_DTRACE_VERSION=0 -Wall -Wextra -Werror -c use.c -o off.o || exit 1
echo "_DTRACE_VERSION=0: $(notes off.o | wc -l) notes, $(nm off.o | grep -c semaphore) semaphores"
g++ -D_DTRACE_VERSION=0 -Wall -Wextra -Werror -c use.cc -o off.o && echo "_DTRACE_VERSION=0: ok for C++"
