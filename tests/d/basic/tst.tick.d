/* A tick probe fires repeatedly; the predicate sees the counter grow. */
#pragma D option quiet

tick-10ms
/i++ == 3/
{
	trace(i);
	exit(0);
}
