# A process that has exited, whose program file is gone too by the time
# its stacks print: frames in it still name the object, with the address
# (DTrace's "object`0xaddress"), from the mappings dtrace kept.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$WORKLOADS/stacks" "$dir/stackcopy"
$DTRACE -wq -c "$dir/stackcopy 2" -n '
syscall::getppid:entry /pid == $target/ { @[ustack(2)] = count(); }
END { system("rm %s", $$1); }' "$dir/stackcopy" | sed 's/`0x[0-9a-f]*$/`{address}/'
