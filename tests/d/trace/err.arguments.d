/* trace() takes exactly one expression. */
#pragma D option errtags

BEGIN
{
	trace(1, 2);
}
