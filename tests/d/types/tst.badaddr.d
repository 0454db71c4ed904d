/* Reading through a bad pointer is an "invalid address" error; a
   misaligned store is "invalid alignment" (dtrace_dif_emulate's STW), a
   misaligned load reads its bytes (illumos checks none on x86); tracing
   goes on (the errors go to stderr, nothing of the faulting clauses to
   stdout). */
#pragma D option quiet

BEGIN
{
	trace(*(int *)8);
}

BEGIN
{
	this->p = (char *)alloca(16);
	*(int *)(this->p + 1) = 1;
	printf("not reached\n");
}

BEGIN
{
	this->p = (char *)alloca(16);
	*(int *)(this->p + 4) = 7;
	printf("%d\n", *(int *)(this->p + 1));
}

BEGIN
{
	printf("still tracing\n");
	exit(0);
}

ERROR
{
	printf("fault %d\n", arg4);
}
