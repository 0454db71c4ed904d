/* Members Linux has no counterpart for are not translated. */
BEGIN
{
	trace(curpsinfo->pr_rssize);
}
