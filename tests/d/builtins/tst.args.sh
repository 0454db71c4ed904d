# args[] has the types of the syscall's tracepoint format:
# write(unsigned int fd, const char *buf, size_t count), close(unsigned int fd).
$DTRACE -q -c "$WORKLOADS/syscalls 2" -n '
syscall::write:entry /pid == $target/
{
	printf("sizes %d %d %d\n", sizeof (args[0]), sizeof (args[1]), sizeof (args[2]));
	printf("%s %d\n", copyinstr((uintptr_t)args[1]), args[2]);
}
syscall::close:entry, syscall::write:entry /pid == $target && args[0] > 1000/
{
	printf("%s %u\n", probefunc, args[0]);
}
syscall::close:return /pid == $target && args[0] < 0/
{
	@ret[args[0], args[1], errno] = count();
}'
