# -x cpu=N traces on CPU N only: probes that fire on other CPUs do nothing,
# the profile provider samples that CPU alone, tick-N and BEGIN/END run
# there. The first workload calls getppid on CPUs 0 1 1 0 1, one call each.
for c in 0 1; do
  echo "cpu=$c:"
  $DTRACE -x cpu=$c -q -n '
    syscall::getppid:entry /pid == $target/ { @calls[cpu] = count(); }
    END { printa("getppid on %d: %@d\n", @calls); printf("END on %d\n", cpu); }' \
    -c "$WORKLOADS/cpu_hop 0 1 1 0 1"
  $DTRACE -x cpu=$c -q -n 'tick-10ms { printf("tick on %d\n", cpu); exit(0); }'
  # A cpu-clock event barely fires on an idle CPU here: keep it busy.
  $DTRACE -x cpu=$c -q -n 'profile-1ms { printf("profile on %d\n", cpu); exit(0); }' \
    -c "taskset -c $c $WORKLOADS/getppid 1000000000"
done
