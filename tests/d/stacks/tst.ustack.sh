# @[ustack()] of a workload whose functions are known: each frame names
# "object`function+0xoffset", one entry per distinct stack (stack_leaf is
# called from two places of stack_middle), the count on its own line. The
# aggregation prints after the workload has exited.
$DTRACE -q -c "$WORKLOADS/stacks 3" -n '
syscall::getppid:entry /pid == $target/ { @[ustack(4)] = count(); }' |
	sed 's/+0x[0-9a-f]*$/+{offset}/'
