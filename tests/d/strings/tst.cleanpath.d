/* cleanpath() drops "//" and "/./" and backs up over "/../" as DTrace does. */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s] [%s]\n", cleanpath("/a/./b/../c"), cleanpath("/a//b///c"),
	    cleanpath("/a/b/../../c"));
	printf("[%s] [%s] [%s]\n", cleanpath("/../x"), cleanpath("/a/b/.."), cleanpath("/a/.b/..c/..."));
	printf("[%s] [%s] [%s]\n", cleanpath("a/../b"), cleanpath(""), cleanpath("/"));
	exit(0);
}
