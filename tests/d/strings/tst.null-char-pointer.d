/*
 * A NULL char * compared with a string is DTrace's NULL string, which
 * compares as "" (DIF's SCMP skips the load check for 0 and
 * dtrace_strncmp reads it as ""); read as a string it faults at 0.
 */
#pragma D option quiet

BEGIN
{
	p = (char *)0;
	printf("%d %d %d\n", "a" == p, "" == p, p < "a");
	s = p;
	printf("%d\n", s == NULL);
}

BEGIN { trace(stringof(p)); }
BEGIN { exit(0); }

ERROR { printf("fault %d at %d\n", arg4, arg5); }
