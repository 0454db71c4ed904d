# run alone: while a second program is attached to sys_enter the kernel
# calls them through __traceiter_sys_enter, one more frame below the probe.
# caller is the kernel PC that fired the probe: for a syscall entry, in the
# kernel's syscall entry work, past the BPF machinery; stackdepth counts the
# kernel frames from there. BEGIN, which dtrace fires itself, has neither.
out=$($DTRACE -q -c "$WORKLOADS/getppid 1" -n '
BEGIN { printf("BEGIN %d %d\n", caller, stackdepth); }
syscall::getppid:entry /pid == $target/
{
	printf("entry %016x\n", caller);
	printf("depth %d\n", stackdepth >= 2 && stackdepth <= 127);
}')
echo "$out" | grep -v '^entry\|^$'
addr=$(echo "$out" | awk '$1 == "entry" { print $2 }')
# The symbol at or below the address: kallsyms sorted with it.
{ cat /proc/kallsyms; echo "$addr ~ =caller="; } | sort | grep -B1 ' =caller=$' | head -1 |
	awk '{ print "caller in", $3 }'
