/* A struct nothing defines has no size. */
BEGIN
{
	trace(sizeof (struct nosuch));
}
