/*
 * psinfo_t's Solaris-only ids (task, project, pool, zone, contract) are 0
 * on Linux; pr_nzomb counts a thread-group leader left a zombie by its
 * group, which dtrace's own is not.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d\n", curpsinfo->pr_taskid, curpsinfo->pr_projid,
	    curpsinfo->pr_poolid, curpsinfo->pr_zoneid, curpsinfo->pr_contract);
	printf("%d\n", curpsinfo->pr_nzomb);
	exit(0);
}
