/* basename() and dirname() with the Guide's edge cases. */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s]\n", basename("/usr/lib/libc.so.1"), dirname("/usr/lib/libc.so.1"));
	printf("[%s] [%s] [%s] [%s]\n", basename("/"), dirname("/"), basename("///"), dirname("///"));
	printf("[%s] [%s] [%s] [%s]\n", basename("foo"), dirname("foo"), basename(""), dirname(""));
	printf("[%s] [%s] [%s] [%s]\n", basename("/foo"), dirname("/foo"), basename("a/b/"),
	    dirname("a/b/"));
	printf("[%s] [%s] [%s]\n", dirname("a//b"), dirname("//a//b//"), basename("//a//b//"));
	printf("[%s]\n", basename(dirname(dirname("/a/b/c"))));
	exit(0);
}
