# Standard DTrace actions and subroutines not implemented yet are refused by
# name, before their arguments (printa(@a) does not fault on the
# aggregation); destructive ones Linux cannot do safely say why.
for f in printa stack ustack jstack speculation speculate commit discard printm tracemem \
    freopen system raise stop chill clear trunc normalize denormalize setopt ftruncate print \
    func sym mod ufunc usym umod uaddr json copyout copyoutstr panic breakpoint; do
	$DTRACE -n "BEGIN { $f(); }" 2>&1
done
$DTRACE -n 'BEGIN { @a = count(); printa("%@d\n", @a); }' 2>&1
$DTRACE -n 'BEGIN { @a[stack()] = count(); }' 2>&1
$DTRACE -n 'BEGIN { trace(ufunc(uregs[0])); }' 2>&1
$DTRACE -n 'BEGIN { copyout(alloca(1), arg0, 1); }' 2>&1
exit 0
