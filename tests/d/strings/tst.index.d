/* index() and rindex(): Perl's semantics, with DTrace's clamping of the start position. */
#pragma D option quiet

BEGIN
{
	s = "hello world";
	printf("%d %d %d %d %d\n", index(s, "o"), index(s, "world"), index(s, "worlds"),
	    index(s, "xyz"), index(s, "hello world!"));
	printf("%d %d %d %d %d\n", index(s, "o", 5), index(s, "o", -3), index(s, "o", 20),
	    index(s, "", 3), index(s, "", 20));
	printf("%d %d %d\n", index("", ""), index("", "a"), index("", "", 5));
	printf("%d %d %d %d\n", rindex(s, "o"), rindex(s, "l"), rindex(s, "h"), rindex(s, "z"));
	printf("%d %d %d %d %d %d\n", rindex(s, "o", 6), rindex(s, "o", -1), rindex(s, "", -1),
	    rindex(s, "", 50), rindex(s, "h", 0), rindex("", ""));
	printf("%d %d\n", index(execname, "trace"), index(strjoin("ab", "cab"), "ab", 1));
	exit(0);
}
