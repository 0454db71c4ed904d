# A library the program dlopens after tracing began: its functions are
# traced once dtrace sees it mapped (within the switchrate; the program
# waits longer than that before calling into it), by pid and USDT probes.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
cat >prov.d <<'D'
provider dlprov { probe called(int); };
D
$DTRACE -h -s prov.d -o prov.h || exit 1
cat >lib.c <<'C'
#include "prov.h"
int lib_function(int n) { DLPROV_CALLED(n); return n + 1; }
C
cat >main.c <<'C'
#include <dlfcn.h>
#include <unistd.h>
int main(void) {
  void* lib = dlopen("./lib.so", RTLD_NOW);
  if (!lib) return 1;
  int (*f)(int) = (int (*)(int))dlsym(lib, "lib_function");
  usleep(600000);
  for (int i = 0; i < 3; i++) f(i);
  return 0;
}
C
gcc -fPIC -c lib.c && $DTRACE -G -s prov.d -o prov.o lib.o && gcc -shared -o lib.so lib.o prov.o &&
  gcc -o main main.c -ldl || exit 1
$DTRACE -Zq -x switchrate=100ms -c ./main -n '
  pid$target:lib.so:lib_function:return { printf("%s returned %d\n", probefunc, arg1); }
  dlprov$target:::called { printf("%s:%s:%s %d\n", probemod, probefunc, probename, arg0); }'
