# psinfo_t members from the task: the controlling terminal as a device
# number (/proc's tty_nr, or -1 with none), the start time from the epoch,
# the children's CPU time, the flags; pr_addr is an unsigned address
# (trace() prints every 64-bit value signed, as in illumos).
tty=$(awk '{ print $7 }' /proc/$$/stat)
[ "$tty" = 0 ] && tty=-1
$DTRACE -qn "
BEGIN
{
	printf(\"%d\n\", curpsinfo->pr_ttydev == (dev_t)$tty);
	now = walltimestamp / 1000000000;
	printf(\"%d\n\", curpsinfo->pr_start.tv_sec <= now && curpsinfo->pr_start.tv_sec > now - 60);
	printf(\"%d\n\", curpsinfo->pr_start.tv_nsec < 1000000000);
	printf(\"%d\n\", curpsinfo->pr_ctime.tv_nsec < 1000000000);
	printf(\"%d %d\n\", curpsinfo->pr_flag & PR_ISSYS, curpsinfo->pr_dmodel == PR_MODEL_LP64);
	printf(\"%d %d\n\", curpsinfo->pr_addr > 0, curpsinfo->pr_addr >> 63);
	printf(\"%d\n\", curpsinfo->pr_addr == (uintptr_t)curthread->group_leader);
	exit(0);
}"
