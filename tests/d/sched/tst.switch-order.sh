# At one context switch off-cpu fires before on-cpu, whatever the order of
# their clauses, as DTrace fires off-cpu before the switch and on-cpu after
# it. Here on-cpu's clauses come first: each time the target takes a CPU,
# its on-cpu must find that the CPU's off-cpu has just named it as the
# next thread to run. (The target starts once tracing is active, so every
# switch counted ran both probes.)
$DTRACE -qn '
int next[int];
sched:::on-cpu /pid == $target && next[cpu] == tid/ { after++; }
sched:::on-cpu /pid == $target && next[cpu] != tid/ { before++; }
sched:::off-cpu { next[cpu] = args[0]->pr_lwpid; }
END { printf("%s; %d on-cpu before its off-cpu\n", after > 0 ? "on-cpu after off-cpu" : "no switch", before); }' -c 'sleep 0.3'
