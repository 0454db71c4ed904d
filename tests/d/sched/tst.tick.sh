# sched:::tick fires on the scheduler's clock tick in the thread it
# charges (here a busy loop), with that thread's lwpsinfo_t and psinfo_t.
$DTRACE -q -c "$WORKLOADS/pidfuncs 20000000" -n '
  sched:::tick /pid == $target/ {
    ticks++;
    named = args[1]->pr_pid == $target && args[0]->pr_lwpid == tid;
  }
  END { printf("ticks in the busy process: %d, its own: %d\n", ticks > 0, named); }' | grep ticks
