/* A format with two precisions is a syntax error, as DTrace reports it. */
#pragma D option errtags

BEGIN
{
	printf("%.*.*d\n", 1, 2, 3);
}
