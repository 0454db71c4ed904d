/*
 * substr() as illumos computes it: a negative index counts from the end and,
 * still negative, eats into the length; a negative length stops that many
 * bytes before the end. The cases of illumos's tst.substr.d, then more.
 */
#pragma D option quiet
#pragma D option strsize=32

BEGIN
{
	s = "foobarbazbop";
	n = strlen(s);
	printf("[%s] [%s] [%s] [%s] [%s]\n", substr(s, 3), substr(s, 300), substr(s, -10),
	    substr(s, 0), substr(s, 1));
	printf("[%s] [%s] [%s]\n", substr(s, n - 1), substr(s, n), substr(s, n + 1));
	printf("[%s] [%s] [%s] [%s]\n", substr(s, 8, 20), substr(s, 4, 4), substr(s, 5, n - 5 + 1),
	    substr(s, 5, n - 5 + 2));
	printf("[%s] [%s] [%s]\n", substr(s, 400, 20), substr(s, 400, 0), substr(s, 400, -1));
	printf("[%s] [%s] [%s] [%s] [%s]\n", substr(s, 3, 0), substr(s, 3, -1), substr(s, 3, -4),
	    substr(s, 3, -20), substr(s, -10, -5));
	printf("[%s] [%s] [%s] [%s]\n", substr(s, 0, 400), substr(s, -1, 400), substr(s, -1, 0),
	    substr(s, -1, -1));
	printf("[%s] [%s] [%s] [%s] [%s]\n", substr(s, -2 * n, 2 * n), substr(s, -2 * n, n),
	    substr(s, -2 * n, n + 1), substr(s, -1 * n, n), substr(s, -1 * n, n - 1));
	printf("[%s] [%s]\n",
	    substr("CRAIG: Positioned them, I don't know... I'm fairly wide guy.", 100, 10),
	    substr("CRAIG: Positioned them, I don't know... I'm fairly wide guy.", 100));
	printf("[%s] [%s] [%s] [%s] [%s] [%s]\n", substr("hello", -10, 7), substr("hello", 1, -1),
	    substr("hello", 0, -1), substr("hello", -3, -1), substr("hello", -6, 1),
	    substr("hello", -6, 2));
	printf("[%s] [%s] [%s] [%s] [%s]\n", substr(s, 3, -1), substr(s, 3, -4), substr(s, -10, -5),
	    substr(s, -24, 12), substr(s, -24, 13));
	exit(0);
}
