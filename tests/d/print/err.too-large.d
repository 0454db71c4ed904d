/* print() records the whole object: it must fit in a record. */
#pragma D option errtags

BEGIN
{
	print((char (*)[40000])arg0);
}
