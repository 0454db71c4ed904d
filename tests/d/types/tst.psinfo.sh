# curpsinfo, curlwpsinfo and curcpu are DTrace's translated views of the
# current process, thread and CPU.
$DTRACE -qn '
syscall::getppid:entry
/pid == $target/
{
	printf("%s %d %d %d\n", curpsinfo->pr_fname, curpsinfo->pr_pid == pid,
	    curpsinfo->pr_ppid == ppid, curpsinfo->pr_uid == uid);
	printf("%d %d\n", curlwpsinfo->pr_lwpid == tid, curcpu->cpu_id == cpu);
	exit(0);
}' -c "$WORKLOADS/getppid 1"
