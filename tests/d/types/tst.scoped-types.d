/* Type names scoped with a module (vmlinux`) name the kernel's types; the
   D scope names the program's own. */
#pragma D option quiet

struct pair {
	int a;
	int b;
};

BEGIN
{
	printf("%d %d %d\n", sizeof (struct vmlinux`task_struct) == sizeof (struct task_struct),
	    sizeof (vmlinux`u64), sizeof (struct D`pair));
	printf("%d\n", ((struct vmlinux`task_struct *)curthread)->pid == tid);
	exit(0);
}
