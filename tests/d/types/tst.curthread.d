/* curthread is the kernel's struct task_struct *; ->, . and [] read its
   members, and char arrays read as strings. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", curthread->pid == tid, curthread->tgid == pid);
	printf("%d\n", curthread->real_parent->tgid == ppid);
	printf("%s %s\n", curthread->comm, stringof(curthread->comm));
	printf("%d\n", curthread->comm[0] == 'd');
	printf("%d\n", (uintptr_t)&curthread->comm ==
	    (uintptr_t)curthread + offsetof(struct task_struct, comm));
	printf("%d\n", sizeof (curthread->comm));
	exit(0);
}
