# -l lists probes in DTrace's columns; -P/-n filter them.
$DTRACE -l -n BEGIN -n 'dtrace:::END'
$DTRACE -l -P dtrace | wc -l
$DTRACE -l -n 'syscall::getppid:' | sed -E 's/^ *[0-9]+ /   ID /'
n=$($DTRACE -l | wc -l)
[ "$n" -gt 600 ] && echo "many probes"
