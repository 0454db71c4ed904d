# progenyof(): the traced command descends from dtrace ($pid) and init, not from kthreadd.
$DTRACE -q -c "$WORKLOADS/syscalls 1" -n '
BEGIN { printf("%d %d\n", progenyof(pid), progenyof(1)); }
syscall::getppid:entry /pid == $target/
{
	printf("%d %d %d %d\n", progenyof($target), progenyof($pid), progenyof(1), progenyof(2));
}'
