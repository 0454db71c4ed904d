# dtrace -h, cc, dtrace -G, link: the program's .note.stapsdt notes name
# each probe as declared, with argument sizes from the declared types, the
# shared _.stapsdt.base, and the semaphore -G defined; untraced, the
# is-enabled test is 0; .dtrace_providers carries the argument types.
. ./gen-common.sh
cp "$USDT/gen-myapp.d" myapp.d; cp "$USDT/gen-app.c" app.c
$DTRACE -h -s myapp.d -o myapp.h || exit 1
gcc -O2 -Wall -Wextra -Werror -c app.c -o app.o || exit 1
$DTRACE -G -s myapp.d -o probes.o app.o || exit 1
gcc app.o probes.o -o app || exit 1
./app
note_summary app
# Every probe site is a nop in the program's text.
notes app | while read -r provider name location rest; do
  objdump -d --start-address=$((location)) --stop-address=$((location + 1)) app |
    grep -q "nop" || echo "$name: no nop at $location"
done
# The object dtrace -G wrote leaves the stack non-executable.
readelf -lW app | awk '$1 == "GNU_STACK" { print "GNU_STACK", $7 }'
readelf -p .dtrace_providers app | sed -n 's/^ *\[ *[0-9a-f]*\]  //p'
