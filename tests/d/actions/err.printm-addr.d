/* printm() reads memory at a pointer. */
#pragma D option errtags

BEGIN
{
	printm(8, arg1);
}
