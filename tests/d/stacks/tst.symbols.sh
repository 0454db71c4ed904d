# The symbol functions as actions (printed "  %-50s") and as aggregation
# keys: ufunc() and usym() keys merge by function, umod() by object, and
# uaddr() keeps each address (stack_middle calls stack_leaf from two
# places); func(), sym() and mod() name kernel functions and modules.
$DTRACE -q -c "$WORKLOADS/stacks 3" -n '
syscall::getppid:entry /pid == $target && !done++/
{
	ufunc(ucaller); usym(ucaller); umod(ucaller); uaddr(ucaller);
	printf("|\n");
	func(caller); sym(caller); mod(caller);
	printf("|\n");
}
syscall::getppid:entry /pid == $target/
{
	@ufunc[ufunc(ucaller)] = count();
	@usym[usym(ucaller)] = count();
	@umod[umod(ucaller)] = count();
	@uaddr[uaddr(ucaller)] = count();
	@func[func(caller), mod(caller)] = count();
}' | sed 's/+0x[0-9a-f]*/+{offset}/g'
