/*
 * The constants of illumos's unistd.d, errno.d, signal.d and procfs.d.
 * Fault numbers are illumos's; errno and signal numbers are Linux's.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d %d\n", DTRACEFLT_UNKNOWN, DTRACEFLT_BADADDR,
	    DTRACEFLT_BADALIGN, DTRACEFLT_ILLOP, DTRACEFLT_DIVZERO,
	    DTRACEFLT_NOSCRATCH);
	printf("%d %d %d %d %d\n", DTRACEFLT_KPRIV, DTRACEFLT_UPRIV,
	    DTRACEFLT_TUPOFLOW, DTRACEFLT_BADSTACK, DTRACEFLT_LIBRARY);
	printf("%d %d %d %d %d %d %d\n", EPERM, ENOENT, EAGAIN, EWOULDBLOCK,
	    ENOSYS, ENOTSUP, ETIMEDOUT);
	printf("%d %d %d %d %d %d %d %d\n", SIGHUP, SIGINT, SIGKILL, SIGSEGV,
	    SIGCHLD, SIGCLD, SIGRTMIN, SIGRTMAX);
	printf("%d %d %d %d %d %d %d\n", SSLEEP, SRUN, SZOMB, SSTOP, SIDL,
	    SONPROC, SWAIT);
	printf("%d %d %x %x %x\n", PR_MODEL_ILP32, PR_MODEL_LP64, PR_STOPPED,
	    PR_ISSYS, PR_PTRACE);
	printf("%d %d %d %d\n", SI_USER, SI_QUEUE, CLD_EXITED, SEGV_MAPERR);
	printf("%d %d %d %d\n", SOBJ_NONE, SOBJ_MUTEX, SOBJ_CV, SOBJ_SHUTTLE);
	exit(0);
}
