# ERROR fires in the faulting probe's context: its output comes before that
# of the next clause of the same firing.
$DTRACE -q -c "$WORKLOADS/getppid 2" -n '
syscall::getppid:entry /pid == $target/ { x = *(int *)0; }
syscall::getppid:entry /pid == $target/ { printf("after\n"); }
ERROR { printf("error on epid %d\n", arg1); }' 2>/dev/null
