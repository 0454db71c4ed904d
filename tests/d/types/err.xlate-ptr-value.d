/* A translated pointer is no value: only -> and * apply to it. */
BEGIN
{
	trace(curpsinfo->pr_pid);
	x = curpsinfo;
}
