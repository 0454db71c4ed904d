/* %hhd takes a signed char, nothing wider. */
#pragma D option errtags

BEGIN
{
	printf("%hhd\n", 1);
}
