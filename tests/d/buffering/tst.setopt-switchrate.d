/*
 * setopt("switchrate") takes effect as tracing goes: once the interval is
 * 10 s, the printa() records of the next ticks wait in the buffer until
 * exit() ends tracing, and then all show the aggregation as it is then
 * (the snapshot taken before that last reading of the buffers).
 */
#pragma D option quiet
#pragma D option switchrate=1ms

tick-200ms
{
	@n = count();
}

tick-200ms
/++i <= 3/
{
	printf("%d\n", i);
}

tick-200ms
/i == 3/
{
	setopt("switchrate", "10sec");
}

tick-200ms
/i > 3/
{
	printa("%@d\n", @n);
}

tick-200ms
/i == 6/
{
	exit(0);
}
