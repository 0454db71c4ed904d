# Many tracepoints in one clause: tracepoints that pass as many arguments
# share one program, which tells them apart at run time (probemod,
# probename and the counts stay per probe).
$DTRACE -q -c "/bin/sh -c /bin/true" -n '
  sdt:sched::sched_process_fork, sdt:sched::sched_process_exit,
  sdt:sched::sched_process_exec, sdt:task::task_newtask
  /pid == $target || ppid == $target/ { @[probemod, probename] = count(); }
  END { printa("%s:%s %@d\n", @); }'
