# Return probes: arg0/arg1 are the return value, -1 on failure with errno set.
# getppid returns dtrace's own pid ($pid): the workload is its child.
$DTRACE -q -c "$WORKLOADS/syscalls 3" -n '
syscall::getppid:return /pid == $target/ { @ok[arg0 == $pid, arg1 == $pid, errno] = count(); }
syscall::close:return /pid == $target && arg0 == -1/ { @bad[probefunc, errno] = count(); }'
