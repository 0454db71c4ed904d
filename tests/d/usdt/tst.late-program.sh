# A program built with dtrace -G that no process runs when tracing
# starts: with -Z, `lateprov*:::go` matches nothing at first; when a
# process maps the program, its provider becomes the object's (path-wide),
# so that run fires (once dtrace has seen the mapping: the first run waits
# 400 ms before firing) and every later run fires from its first
# instruction. The runs may fire on different CPUs: -x temporal prints
# them in time order.
work=$(mktemp -d)
trap 'kill $dtrace 2>/dev/null; rm -rf "$work"' EXIT
cd "$work" || exit 2
printf 'provider lateprov { probe go(int); };\n' >prov.d
cat >app.c <<'C'
#include <stdlib.h>
#include <unistd.h>
#include "prov.h"
int main(int argc, char **argv) {
  int wait_ms = argc > 1 ? atoi(argv[1]) : 0;
  usleep(wait_ms * 1000);
  LATEPROV_GO(wait_ms);
  return 0;
}
C
$DTRACE -h -s prov.d && gcc -c app.c && $DTRACE -G -s prov.d -o probes.o app.o &&
  gcc -o app app.o probes.o || exit 1
$DTRACE -Zq -x temporal -o trace -n 'BEGIN { printf("ready\n"); }
  lateprov*:::go { printf("%s %s %d\n", probeprov, probemod, arg0); }' &
dtrace=$!
for _ in $(seq 100); do
  grep -q ready trace 2>/dev/null && break
  sleep 0.1
done
./app 400
./app 0
./app 0
sleep 0.3
kill -INT $dtrace
wait $dtrace
cat trace
