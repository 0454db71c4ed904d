/*
 * String parameters are "const char *" as in illumos: a char array or char
 * pointer is read as a string, and 0 is accepted and faults at run time.
 * bcopy takes a string as its source.
 */
#pragma D option quiet

BEGIN
{
	p = (char *)alloca(8);
	bcopy("abc", p, 4);
	printf("%d %s %s %d\n", strlen(curthread->comm), toupper(curthread->comm),
	    strjoin(p, "!"), strlen(p));
}

BEGIN
{
	n = strlen(0);
	printf("not reached\n");
}

ERROR
{
	printf("fault %d\n", arg4);
	exit(0);
}
