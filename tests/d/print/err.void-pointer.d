/* print() of a pointer shows the object it points to, which void is not. */
#pragma D option errtags

BEGIN
{
	print((void *)arg0);
}
