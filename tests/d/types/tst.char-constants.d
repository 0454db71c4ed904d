/*
 * Character constants as DTrace reads them: several characters make one
 * number (up to 8 of them, 64-bit beyond an int's 4), \' and \? are not
 * escapes (the backslash stays), \" is, and an octal escape takes at most
 * three digits. Strings escape alike.
 */
#pragma D option quiet
BEGIN
{
	printf("%d %d %d %d\n", 'a', '\'', '\?', '\0103');
	printf("%d %d\n", 'abcd', sizeof ('a'));
	printf("%d %d\n", 'a\bcdefgh', sizeof ('abcdefgh'));
	printf("%s|%s\n", "\?\\\'\"", "\x41\102");
	exit(0);
}
