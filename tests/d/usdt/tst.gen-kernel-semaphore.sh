# The kernel raises a probe's semaphore while a tracer has it enabled:
# enable_probe opens a perf uprobe on query__start's nop with its
# semaphore as reference counter, as bpftrace and dtrace's USDT provider
# do. That works only if -G put the semaphore in file-backed memory at the
# address the note gives. Untraced, the program sees 0 again.
. ./gen-common.sh
cp "$USDT/gen-myapp.d" myapp.d; cp "$USDT/gen-app.c" app.c
gcc -Wall -Werror "$USDT/gen-enable-probe.c" -o enable_probe || exit 1
$DTRACE -h -s myapp.d || exit 1
gcc -O2 -c app.c -o app.o || exit 1
$DTRACE -G -s myapp.d app.o || exit 1
gcc app.o myapp.o -o app || exit 1
notes app | while read -r provider name location base semaphore args; do
  [ "$name" = query__start ] || continue
  ./enable_probe "$PWD/app" "$(file_offset app "$location")" "$(file_offset app "$semaphore")" ./app
done
./app
