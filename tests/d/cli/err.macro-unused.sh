# The last macro argument must be referenced (D_MACRO_UNUSED) unless
# -x argref, in a listing (-l) too.
$DTRACE -qn 'BEGIN { exit(0); }' a b c
$DTRACE -qn 'BEGIN { trace($$3); exit(0); }' a b c >/dev/null
echo "status $?" >&2
$DTRACE -x argref -qn 'BEGIN { exit(0); }' a b c
echo "status $?" >&2
$DTRACE -e -n 'syscall::$$1:entry { }' getppid
echo "status $?" >&2
# So with -l, which compiles the descriptions it lists.
$DTRACE -lf getppid '{ trace(1); }'
echo "status $?" >&2
$DTRACE -ln 'syscall::$1:entry' getppid >/dev/null
echo "status $?" >&2
exit 1
