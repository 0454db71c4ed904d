# -e compiles and exits without enabling anything.
$DTRACE -e -n 'syscall::getppid:entry { @[execname] = count(); }'
echo "status $?"
$DTRACE -e -n 'BEGIN { x = ; }' 2>/dev/null
echo "status $?"
