# A bad option is a usage error: exit status 2.
$DTRACE -Q 2>/dev/null
echo "status $?"
$DTRACE 2>/dev/null
echo "status $?"
