/*
 * printa() prints an aggregation as the consumer's last snapshot held it
 * (dtrace_aggregate_snap): one is taken when the consumer first wakes and
 * then at each aggrate tick, here an hour away, so the counts the ticks
 * add do not show; the end of tracing prints what they came to (the empty
 * printa()s printed nothing of it).
 */
#pragma D option quiet
#pragma D option aggrate=1h
#pragma D option switchrate=10ms
int n;

tick-200ms
/n == 2/
{
	exit(0);
}

tick-200ms
/n < 2/
{
	@ = count();
	printa(@);
	printf("tick %d\n", ++n);
}
