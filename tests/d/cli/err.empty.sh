# An empty program, or one of declarations only, is D_EMPTY (exit 1) unless
# -x empty.
$DTRACE -s /dev/null
echo "status $?" >&2
# The error names the line the script ends on, after its last newline.
script=$(mktemp --suffix=.d)
printf '/* nothing\n * but comments\n */\n' > "$script"
$DTRACE -s "$script" 2>&1 | sed "s|$script|SCRIPT|" >&2
rm -f "$script"
$DTRACE -n ''
$DTRACE -n 'int x;'
$DTRACE -e -x empty -s /dev/null
echo "status $?" >&2
# Run, an empty program (or descriptions -Z let match nothing) enables no
# probe: refused, rather than waiting for nothing.
$DTRACE -q -x empty -s /dev/null
echo "status $?" >&2
$DTRACE -q -Z -n 'syscall::nosuchcall:entry'
echo "status $?" >&2
exit 1
