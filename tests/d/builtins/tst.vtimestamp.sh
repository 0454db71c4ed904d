# vtimestamp is the thread's time on CPU, brought up to date at every probe
# as illumos's t_dtrace_vtime is, not only at a scheduler tick: it advances
# across each of a thousand getppid() calls, and across a 100 ms sleep by
# far less than the sleep. A shell that counts to 100000 spends much of
# its life on CPU (over a quarter even on a busy machine).
$DTRACE -q -c "$WORKLOADS/getppid 1000" -n '
syscall::getppid:entry /pid == $target/ { self->v = vtimestamp; }
syscall::getppid:return /self->v/ { @still = sum(vtimestamp == self->v); @n = count(); self->v = 0; }
END { printa("calls %@d, vtimestamp unchanged in %@d\n", @n, @still); }'
$DTRACE -q -c "$WORKLOADS/getppid 1 100" -n '
syscall::nanosleep:entry, syscall::clock_nanosleep:entry /pid == $target/ {
	self->v = vtimestamp; self->t = timestamp;
}
syscall::nanosleep:return, syscall::clock_nanosleep:return /self->t/ {
	printf("asleep: on CPU less than a tenth of the time: %s\n",
	    (vtimestamp - self->v) * 10 < timestamp - self->t ? "yes" : "no");
	self->t = 0;
}'
spin=$(mktemp)
trap 'rm -f "$spin"' EXIT
echo 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done' >"$spin"
$DTRACE -q -c "sh $spin" -n '
proc:::exit /pid == $target/ {
	printf("busy: on CPU more than a quarter of the time: %s\n",
	    vtimestamp * 4 > timestamp - curthread->start_time ? "yes" : "no");
}'
# In sched:::on-cpu it is the incoming thread's, on the same clock as in
# its other probes: what it grows by from on-cpu to off-cpu is the time
# the thread ran between the two switches, never more than the wall time.
# dtrace's own thread ran (compiling) before tracing began, so a clock of
# its whole life would show here.
$DTRACE -q -n '
int64_t ran, wall, over;
sched:::on-cpu /pid == $pid/ { self->v = vtimestamp; self->t = timestamp; }
sched:::off-cpu /self->t/ {
	ran += vtimestamp - self->v; wall += timestamp - self->t;
	over += vtimestamp - self->v > timestamp - self->t;
	self->t = 0;
}
tick-100ms /++ticks == 5/ { exit(0); }
END {
	printf("on to off-cpu: more than the wall time %d times, about all of it: %s\n",
	    over, wall > 0 && ran >= 0 && wall - ran < wall / 10 ? "yes" : "no");
}'
# Through one firing it holds still, as timestamp does.
$DTRACE -q -n 'BEGIN { self->v = vtimestamp; } BEGIN { printf("one firing: %d\n", vtimestamp - self->v); exit(0); }'
