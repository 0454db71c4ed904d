/* print() takes exactly one expression. */
#pragma D option errtags

BEGIN
{
	print(1, 2);
}
