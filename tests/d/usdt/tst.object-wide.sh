# A USDT provider named without a process ID is the object's, in every
# process that maps it: a child the traced program forks fires it too
# (with the child's pid), and probeprov carries no process ID. Parent and
# child may run on different CPUs: -x temporal prints them in time order.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
printf 'provider forkprov { probe go(int); };\n' >prov.d
cat >app.c <<'C'
#include <sys/wait.h>
#include <unistd.h>
#include "prov.h"
int main(void) {
  FORKPROV_GO(1);
  if (fork() == 0) {
    FORKPROV_GO(2);
    return 0;
  }
  wait(0);
  FORKPROV_GO(3);
  return 0;
}
C
$DTRACE -h -s prov.d && gcc -c app.c && $DTRACE -G -s prov.d -o probes.o app.o &&
  gcc -o app app.o probes.o || exit 1
$DTRACE -Zq -x temporal -c ./app -n 'forkprov*:::go {
  printf("%s:%s:%s %d %s\n", probeprov, probefunc, probename, arg0, pid == $target ? "parent" : "child"); }'
