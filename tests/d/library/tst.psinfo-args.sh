# pr_argc, pr_argv and pr_envp describe the initial stack of the process:
# argc, the argument vector and its NULL, then the environment vector.
# argc is user memory, read only in the address space the probe fired in:
# another process's pr_argc (and pr_envp) is 0.
$DTRACE -qn '
syscall::getppid:entry
/pid == $target/
{
	argv = curpsinfo->pr_argv;
	printf("%d %s %s %d\n", curpsinfo->pr_argc,
	    copyinstr(*(uintptr_t *)copyin(argv + 8, 8)),
	    copyinstr(*(uintptr_t *)copyin(argv + 16, 8)),
	    *(uintptr_t *)copyin(argv + 24, 8) == 0);
	printf("%d\n", curpsinfo->pr_envp == argv + 24 + 8);
	printf("%s\n", strstr(copyinstr(*(uintptr_t *)copyin(curpsinfo->pr_envp, 8)), "=") != "" ?
	    "environment" : "not environment");
	printf("%d %d\n", xlate <psinfo_t *> (curthread->real_parent)->pr_argc,
	    xlate <psinfo_t *> (curthread->real_parent)->pr_envp);
	exit(0);
}' -c "$WORKLOADS/getppid 1 two"
