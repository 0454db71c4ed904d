# Stacks and symbols in -x oformat=json (frame objects with the symbol,
# its parts and the address, docs/OUTPUT.md) and -x oformat=folded
# (frames as printed, root first, without offsets; user frames before
# kernel ones). Addresses and offsets vary: they are replaced.
$DTRACE -x oformat=json -q -c "$WORKLOADS/stacks 1" -n '
syscall::getppid:entry /pid == $target && !done++/
{
	ustack(2); usym(ucaller); uaddr(ucaller); umod(ucaller); sym(caller); mod(caller);
	@[ufunc(ucaller), stack(1)] = count();
}' | jq -c 'del(.timestamp, .cpu, .id) | walk(if type == "object" then
	with_entries(if .key == "address" or .key == "offset" then .value = "A" else . end) else . end)' |
	sed 's/+0x[0-9a-f]*/+{offset}/g'
$DTRACE -x oformat=folded -q -c "$WORKLOADS/stacks 2" -n '
syscall::getppid:entry /pid == $target/ { @[execname, ustack(3), stack(2)] = count(); }'
