# lwpsinfo_t of the thread a probe fires in: on a CPU (SONPROC, 'O'), its
# name, its start time and CPU time, its flags.
$DTRACE -qn '
syscall::getppid:entry
/pid == $target/
{
	printf("%d %c %s\n", curlwpsinfo->pr_state == SONPROC, curlwpsinfo->pr_sname,
	    curlwpsinfo->pr_name);
	now = walltimestamp / 1000000000;
	printf("%d\n", curlwpsinfo->pr_start.tv_sec <= now &&
	    curlwpsinfo->pr_start.tv_sec > now - 60);
	printf("%d\n", curlwpsinfo->pr_start.tv_sec >= curpsinfo->pr_start.tv_sec);
	printf("%d %d\n", curlwpsinfo->pr_time.tv_sec < 60, curlwpsinfo->pr_time.tv_nsec < 1000000000);
	printf("%d %d\n", curlwpsinfo->pr_flag & (PR_ISSYS | PR_IDLE | PR_STOPPED), curlwpsinfo->pr_lwpid == tid);
	l = *curlwpsinfo;
	printf("%s %d\n", l.pr_name, l.pr_start.tv_sec == curlwpsinfo->pr_start.tv_sec);
	exit(0);
}' -c "$WORKLOADS/getppid 1"
