# One clause on several probes: probefunc and probename name the one firing.
# Only the workload's own close(-1) calls count: the dynamic loader's closes
# depend on the environment.
$DTRACE -q -c "$WORKLOADS/syscalls 4" -n '
syscall::getppid:entry,syscall::getppid:return,syscall::close:entry
/pid == $target && (probefunc != "close" || (int)arg0 == -1)/
{ @[probefunc, probename] = count(); }'
