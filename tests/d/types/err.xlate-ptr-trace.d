/* trace() of a translated pointer is refused as in illumos. */
BEGIN
{
	trace(curpsinfo);
}
