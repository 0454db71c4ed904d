/*
 * Probes of every kind dtrace enables for the cleanup tests: raw
 * tracepoints (syscall, sched), perf events (profile), a timer thread
 * (tick) and uprobes in the -c command (pid). BEGIN says when all are
 * enabled; a kill(2147483000, 0) from the test asks for exit().
 */
BEGIN
{
	printf("ready %d\n", $target);
}

syscall::getppid:entry
/pid == $target/
{
	@calls = count();
}

sched:::on-cpu
/pid == $target/
{
	@oncpu = count();
}

profile-97
{
	@samples = count();
}

tick-50ms
{
	@ticks = count();
}

pid$target::main:entry,
pid$target::syscall:entry
{
	@user[probefunc] = count();
}

syscall::kill:entry
/arg0 == 2147483000 && arg1 == 0/
{
	exit(0);
}
