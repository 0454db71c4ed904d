/* An aggregation is no value that trace() can record. */
#pragma D option errtags

BEGIN
{
	@a = count();
	trace(@a);
}
