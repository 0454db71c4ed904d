/* print() of a void expression has nothing to show. */
#pragma D option errtags

BEGIN
{
	print((void)1);
}
