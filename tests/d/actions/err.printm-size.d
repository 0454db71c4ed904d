/* printm() records a constant number of bytes. */
#pragma D option errtags

BEGIN
{
	printm(arg0, (char *)arg1);
}
