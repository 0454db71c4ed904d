/*
 * s[i] is the character at i of a string (a char), for string variables,
 * clause-locals, literals and subroutine results, with a constant or a
 * computed index; past the end it is 0, as is a negative index.
 */
#pragma D option quiet
BEGIN
{
	s = "hello";
	this->t = "world";
	i = 4;
	printf("%c%c%c %d\n", s[0], this->t[i], "abc"[1], s[1]);
	printf("%c %d %d %d\n", toupper(s)[i - 3], s[5], s[i + 100], s[-1]);
	exit(0);
}
