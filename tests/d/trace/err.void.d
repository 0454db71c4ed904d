/* trace() of a void expression has nothing to record. */
#pragma D option errtags

BEGIN
{
	trace((void)1);
}
