# A new process's first thread fires start, then lwp-start, whatever the
# order of their clauses (both come from one kernel event here): the
# lwp-start clause comes first, and for each child of the shell it must
# find start already fired for that thread.
spawner=$(mktemp)
trap 'rm -f "$spawner"' EXIT
printf '/bin/true\n/bin/true\n/bin/true\n' >"$spawner"
$DTRACE -q -c "sh $spawner" -n '
int started[int];
proc:::lwp-start /progenyof($target) && pid != $target && started[tid]/ { after++; }
proc:::lwp-start /progenyof($target) && pid != $target && !started[tid]/ { before++; }
proc:::start /progenyof($target) && pid != $target/ { started[tid] = 1; }
END { printf("lwp-start after start %d times, before it %d times\n", after, before); }'
