# Destructive actions and subroutines Linux cannot do safely are refused,
# saying why, once their arguments match DTrace's prototype.
for f in panic breakpoint; do
	$DTRACE -n "BEGIN { $f(); }" 2>&1
done
$DTRACE -n 'BEGIN { copyout(alloca(1), arg0, 1); }' 2>&1
$DTRACE -n 'BEGIN { copyoutstr("x", arg0, 2); }' 2>&1
exit 0
