/*
 * strjoin() nests as deep as a program writes it: each level has its own
 * scratch area, as many as the program nests.
 */
#pragma D option quiet

BEGIN
{
	printf("%s\n", strjoin("abc", strjoin("def", strjoin("ghi",
	    strjoin("jkl", strjoin("mno", strjoin("pqr", "stu")))))));
	printf("%s\n", strjoin(strjoin(strjoin(strjoin("a", "b"), "c"), "d"), "e"));
	exit(0);
}
