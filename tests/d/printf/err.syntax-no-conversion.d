/* A "%" at the end of a format names no conversion. */
#pragma D option errtags

BEGIN
{
	printf("%3", 123);
}
