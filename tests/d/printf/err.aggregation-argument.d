/* An aggregation is no printf() argument: no conversion takes one. */
#pragma D option errtags

BEGIN
{
	@a = count();
	printf("%d\n", @a);
}
