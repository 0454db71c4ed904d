/*
 * With an aggrate shorter than the switchrate, a snapshot precedes each
 * reading of the buffers: every printa() shows the counts so far.
 */
#pragma D option quiet
#pragma D option aggrate=1ms
#pragma D option switchrate=50ms
int n;

tick-100ms
/n < 3/
{
	@ = count();
	printa(@);
	n++;
}

tick-100ms
/n == 3/
{
	exit(0);
}
