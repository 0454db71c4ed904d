# curpsinfo, curlwpsinfo and curcpu are DTrace's translated views of the
# current process, thread and CPU.
$DTRACE -qn '
syscall::getppid:entry
/pid == $target/
{
	printf("%s %d %d %d\n", curpsinfo->pr_fname, curpsinfo->pr_pid == pid,
	    curpsinfo->pr_ppid == ppid, curpsinfo->pr_uid == uid);
	printf("%d %d\n", curlwpsinfo->pr_lwpid == tid, curcpu->cpu_id == cpu);
	/* On a CPU (O), with an address space of some size, not yet exited. */
	printf("%c %d %d\n", curlwpsinfo->pr_sname, curpsinfo->pr_size > 0, curpsinfo->pr_wstat);
	exit(0);
}' -c "$WORKLOADS/getppid 1"
