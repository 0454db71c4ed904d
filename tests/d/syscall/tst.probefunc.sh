# One clause on several probes: probefunc and probename name the one firing.
$DTRACE -q -c "$WORKLOADS/syscalls 4" -n '
syscall::getppid:entry,syscall::close:entry,syscall::close:return /pid == $target/
{ @[probefunc, probename] = count(); }'
