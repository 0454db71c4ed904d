/*
 * String subroutines nest as deep as a program writes them: illumos has no
 * limit (dtrace_dif_subr puts each result in a new scratch allocation);
 * here each level of nesting gets its own work areas in scratch space.
 */
#pragma D option quiet

BEGIN
{
	printf("%s\n", strstr(strstr(strstr(strstr("abcdef", "b"), "c"), "d"), "e"));
	printf("%s\n", basename(dirname(basename(dirname("/a/b/c/d")))));
	printf("%s\n", dirname(cleanpath(dirname(cleanpath(dirname(cleanpath(
	    dirname("/a/./b//c/d/e/f/g"))))))));
	printf("%d\n", index(strstr(strstr(strstr(strstr(strstr("abcdefghij", "b"),
	    "c"), "d"), "e"), "f"), strchr(strrchr(basename("/x/gh"), 'g'), 'g')));
	this->a = (ipaddr_t *)alloca(4);
	*this->a = htonl(0x7f000001);
	printf("%s\n", strstr(strchr(strrchr(strstr(inet_ntoa(this->a), "0"), '.'),
	    '.'), "1"));
	exit(0);
}
