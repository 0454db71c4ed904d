/*
 * strchr(), strrchr(), strstr() and strtok() give DTrace's NULL when they
 * find nothing (dtrace_dif_subr leaves 0 in the register): it compares
 * equal to NULL and to "" (dtrace_strncmp reads NULL as ""), a variable
 * assigned it is NULL, and reading its bytes is an invalid address fault
 * at 0. A result that is found but empty (the NUL strchr(s, 0) finds) is
 * a string like any other.
 */
#pragma D option quiet

BEGIN
{
	printf("[%s] %d %d\n", strchr("abc", 0), strchr("abc", 'z') == NULL,
	    strchr("abc", 'z') == "");
	x = strstr("abc", "zz");
	printf("%d\n", x == NULL);
	self->t = strtok(",,", ",");
	printf("%d\n", self->t == NULL);
}

BEGIN { printf("[%s]\n", strchr("abc", 'z')); }
BEGIN { trace(strlen(strrchr("abc", 'z'))); }
BEGIN { printf("[%s]\n", x); }
BEGIN { trace(strjoin(strtok(",", ","), "x")); }
BEGIN { exit(0); }

ERROR { printf("fault %d at %d in clause %d\n", arg4, arg5, arg1); }
