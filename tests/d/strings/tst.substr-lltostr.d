/* substr() with positive, negative and out-of-range indices; lltostr() at the extremes. */
#pragma D option quiet

BEGIN
{
	s = "hello world";
	printf("[%s] [%s] [%s] [%s] [%s] [%s]\n", substr(s, 6), substr(s, 0, 5), substr(s, -5),
	    substr(s, -50, 2), substr(s, 20), substr(s, 3, -1));
	printf("[%s] [%s] [%s] [%s]\n", lltostr(0), lltostr(-42), lltostr(9223372036854775807),
	    lltostr(-9223372036854775807 - 1));
	printf("%s\n", strjoin(lltostr(pid == $pid), substr(execname, 1, 3)));
	exit(0);
}
