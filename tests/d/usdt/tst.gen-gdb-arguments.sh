# gdb finds the probes by their notes and reads each argument where the
# note says it is, at -O0 and -O2; setting a breakpoint on a probe raises
# its semaphore, so the program sees it enabled.
. ./gen-common.sh
cp "$USDT/gen-myapp.d" myapp.d; cp "$USDT/gen-app.c" app.c
$DTRACE -h -s myapp.d || exit 1
$DTRACE -G -s myapp.d -o semaphores.o || exit 1  # objects are optional
for opt in -O0 -O2; do
  gcc $opt -g -Wall -Werror app.c semaphores.o -o app || exit 1
  echo "$opt:"
  gdb -batch -nx \
    -ex 'break -probe-stap myapp:query__start' \
    -ex 'break -probe-stap myapp:d__ash' \
    -ex 'break -probe-stap myapp:mapped' \
    -ex 'run "select 2" > app.out' \
    -ex 'printf "query__start %s %d\n", (char *)$_probe_arg0, $_probe_arg1' \
    -ex continue \
    -ex 'printf "d__ash %d %c %d %lu %ld %s\n", *(int *)$_probe_arg0, $_probe_arg1, $_probe_arg2, $_probe_arg3, $_probe_arg4, (char *)$_probe_arg5' \
    -ex continue \
    -ex 'printf "mapped %d %s (%d arguments)\n", $_probe_arg0, (char *)$_probe_arg1, $_probe_argc' \
    -ex continue \
    ./app 2>&1 | grep -E '^(query__start|d__ash|mapped) '
  cat app.out
done
