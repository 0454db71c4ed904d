# A thread-local used only in an ERROR clause, which runs inline in the
# faulting probe's program: the thread's element is found there too.
$DTRACE -q -c "$WORKLOADS/getppid 3" -n '
  syscall::getppid:entry /pid == $target/ { x = 0; y = 1 / x; }
  ERROR { self->faults++; printf("faults in this thread: %d\n", self->faults); }' 2>/dev/null
