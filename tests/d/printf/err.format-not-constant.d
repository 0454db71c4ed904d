/* A string that is not a constant cannot be a format. */
#pragma D option errtags

BEGIN
{
	printf(probename);
}
