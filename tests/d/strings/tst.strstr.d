/* strstr(), strchr() and strrchr() give the rest of the string from the match; no match is
   DTrace's NULL (dtrace_dif_subr leaves 0), which compares equal to NULL. */
#pragma D option quiet

BEGIN
{
	s = "/usr/lib/libc.so.1";
	printf("[%s] [%s] %d [%s]\n", strstr(s, "lib"), strstr(s, "libc"), strstr(s, "nope") == NULL,
	    strstr(s, ""));
	printf("[%s] [%s] %d %d\n", strchr(s, '/'), strchr(s, '.'), strchr(s, 'z') == NULL,
	    strchr(s, 0) == NULL);
	printf("[%s] [%s] %d %d\n", strrchr(s, '/'), strrchr(s, '.'), strrchr(s, 'z') == NULL,
	    strrchr(s, 0) == NULL);
	printf("[%s] %d [%s]\n", strstr("", ""), strstr("", "a") == NULL, strchr(strstr(s, "c."), 'o'));
	exit(0);
}
