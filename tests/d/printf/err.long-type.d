/* %ld takes a signed 64-bit integer. */
#pragma D option errtags

BEGIN
{
	printf("%ld\n", (short)1);
}
