/* strstr(), strchr() and strrchr() give the rest of the string from the match; no match is "". */
#pragma D option quiet

BEGIN
{
	s = "/usr/lib/libc.so.1";
	printf("[%s] [%s] [%s] [%s]\n", strstr(s, "lib"), strstr(s, "libc"), strstr(s, "nope"),
	    strstr(s, ""));
	printf("[%s] [%s] [%s] [%s]\n", strchr(s, '/'), strchr(s, '.'), strchr(s, 'z'), strchr(s, 0));
	printf("[%s] [%s] [%s] [%s]\n", strrchr(s, '/'), strrchr(s, '.'), strrchr(s, 'z'),
	    strrchr(s, 0));
	printf("[%s] [%s] [%s]\n", strstr("", ""), strstr("", "a"), strchr(strstr(s, "c."), 'o'));
	exit(0);
}
