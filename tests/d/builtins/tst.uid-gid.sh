# uid and gid are the thread's own (real) ids, each in its place, and ppid
# its parent's process ID (dtrace started it), in a syscall probe and in a
# probe that has no syscall guard (proc:::exit).
$DTRACE -q -c "setpriv --reuid=65534 --regid=65533 --clear-groups $WORKLOADS/getppid 1" -n '
syscall::getppid:entry /pid == $target/ {
	printf("uid %d gid %d ppid %d\n", uid, gid, ppid == $pid);
}
proc:::exit /pid == $target/ {
	printf("exit: uid %d gid %d ppid %d\n", uid, gid, ppid == $pid);
}'
