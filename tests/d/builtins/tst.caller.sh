# caller is the kernel PC that fired the probe: for a syscall entry, in the
# kernel's syscall entry work, past the BPF machinery; stackdepth counts the
# kernel frames from there. BEGIN, which dtrace fires itself, has neither.
# The check runs twice: alone, and while a second tracer shares sys_enter,
# when the kernel calls both through __traceiter_sys_enter, one more frame.
check() {
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
}
check
ready=$(mktemp)
$DTRACE -q -n 'BEGIN { printf("ready\n"); } syscall::read:entry { }' >"$ready" &
other=$!
while ! grep -q ready "$ready"; do sleep 0.05; done
check
kill $other
wait $other 2>/dev/null
rm -f "$ready"
