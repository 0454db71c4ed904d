# Built-in variables describe the firing: checked against what the shell knows.
$DTRACE -q -c "$WORKLOADS/getppid 1" -n '
syscall::getppid:entry /pid == $target/
{
	printf("pid %d tid %d ppid %d\n", pid == $target, tid == $target, ppid == $pid);
	printf("uid %d gid %d\n", uid, gid);
	printf("%s %s %s %s\n", probeprov, probemod == "" ? "-" : probemod, probefunc, probename);
	printf("execname %s\n", execname);
	printf("cpu %d\n", cpu >= 0 && cpu < 4096);
	printf("timestamp %d vtimestamp %d\n", timestamp > 0, vtimestamp > 0);
	printf("walltimestamp %d\n", walltimestamp / 1000000000 - $1 <= 60 && walltimestamp / 1000000000 - $1 >= -60);
	printf("epid %d id %d\n", epid, id > 3);
}' $(date +%s)
