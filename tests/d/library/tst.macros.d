/* $projid and $taskid are 0, as psinfo_t's pr_projid and pr_taskid. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", $projid, $taskid, curpsinfo->pr_projid, curpsinfo->pr_taskid);
	exit(0);
}
