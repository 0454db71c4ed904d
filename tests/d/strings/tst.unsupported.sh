# Standard DTrace actions and subroutines not implemented yet are refused by
# name, before their arguments; destructive ones Linux cannot do safely say
# why, once their arguments match DTrace's prototype.
for f in json panic breakpoint; do
	$DTRACE -n "BEGIN { $f(); }" 2>&1
done
$DTRACE -n 'BEGIN { copyout(alloca(1), arg0, 1); }' 2>&1
$DTRACE -n 'BEGIN { copyoutstr("x", arg0, 2); }' 2>&1
exit 0
