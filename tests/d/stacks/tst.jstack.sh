# jstack() names frames in JIT-compiled code from the /tmp/perf-PID.map
# that JITs write for Linux profilers (here the jit workload's); the
# other frames are named as ustack() names them. jstack() records
# jstackframes (50) frames by default.
out=$($DTRACE -q -c "$WORKLOADS/jit 2" -n '
syscall::getppid:entry /pid == $target/ { @[jstack()] = count(); }
END { printf("target %d\n", $target); }')
rm -f "/tmp/perf-$(echo "$out" | awk '$1 == "target" { print $2 }').map"
echo "$out" | grep -v '^target' | grep -v 'libc.so' | sed 's/+0x[0-9a-f]*$/+{offset}/'
