/*
 * An inline standing for a translated pointer (curcpu, curpsinfo) has its
 * declared pointer type: cast to a scalar, it is its translator's input
 * (illumos's dt_cg_node generates xlate's operand).
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", (int64_t)curcpu == cpu, (uintptr_t)curpsinfo == (uintptr_t)curthread);
	exit(0);
}
