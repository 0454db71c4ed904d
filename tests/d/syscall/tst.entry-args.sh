# Entry probes see the syscall's arguments as arg0..argN.
$DTRACE -q -c "$WORKLOADS/syscalls 2" -n '
syscall::close:entry /pid == $target && (int)arg0 == -1/ { @closes = count(); }
syscall::write:entry /pid == $target/ { printf("write of %d bytes\n", arg2); }'
