# Threads writing into one pipe contend for its mutex: lockstat's
# adaptive probes fire in them at lock:contention_end with the mutex
# (a kernel address, typed struct mutex *) and the nanoseconds waited
# since the same thread's lock:contention_begin: every wait is timed.
$DTRACE -q -c "$WORKLOADS/pipe_writers" -n '
lockstat:::adaptive-spin, lockstat:::adaptive-block /pid == $target/ {
  @waits = count();
  @untimed = sum(arg1 == 0);
  @user = sum(arg0 < 0xffff800000000000);
  @typed = sum(args[0] != (struct mutex *)arg0);
}
END {
  printa("waits %@d\n", @waits);
  printa("untimed %@d\n", @untimed);
  printa("not kernel addresses %@d\n", @user);
  printa("args[0] differs %@d\n", @typed);
}' | awk '$1 == "waits" { print ($2 > 100 ? "contended" : "only " $2 " waits"); next } { print }'
