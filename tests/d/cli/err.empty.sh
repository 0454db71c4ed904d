# An empty program, or one of declarations only, is D_EMPTY (exit 1) unless
# -x empty.
$DTRACE -s /dev/null
echo "status $?" >&2
$DTRACE -n ''
$DTRACE -n 'int x;'
$DTRACE -e -x empty -s /dev/null
echo "status $?" >&2
exit 1
