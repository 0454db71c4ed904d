/* Reading through a bad pointer is an "invalid address" error; a
   misaligned load is "invalid alignment"; tracing goes on (the errors go
   to stderr, nothing of the faulting clauses to stdout). */
#pragma D option quiet

BEGIN
{
	trace(*(int *)8);
}

BEGIN
{
	this->p = (char *)alloca(16);
	trace(*(int *)(this->p + 1));
}

BEGIN
{
	printf("still tracing\n");
	exit(0);
}
