# Each switch interval prints CPU 0's records, then CPU 1's, as dtrace(1M)
# reads its per-CPU buffers; -x temporal prints them in the order they were
# recorded across CPUs. The workload makes its six getppid calls, on CPUs
# 1 1 0 0 1 1, within one interval: a 10 s one, which its exit ends (a
# short one could end between two of the calls on a loaded machine).
prog='syscall::getppid:entry /pid == $target/ { printf("%d %d\n", cpu, ++n); }'
echo "cpu by cpu:"
$DTRACE -q -x switchrate=10s -n "$prog" -c "$WORKLOADS/cpu_hop 1 1 0 0 1 1"
echo "temporal:"
$DTRACE -q -x switchrate=10s -x temporal -n "$prog" -c "$WORKLOADS/cpu_hop 1 1 0 0 1 1"
