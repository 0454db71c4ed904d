# copyinstr() reads a string from the traced process.
$DTRACE -q -c "$WORKLOADS/syscalls 1" -n '
syscall::openat:entry /pid == $target && copyinstr(arg1) == "/dev/null"/
{
	printf("%s %d\n", copyinstr(arg1), strlen(copyinstr(arg1)));
	printf("%s\n", copyinstr(arg1, 4));
}'
