/*
 * Scratch space holds only the areas a program uses: with no nested
 * strjoin() a strsize of 4096 fits, and a string of 2048 characters is
 * kept whole.
 */
#pragma D option quiet
#pragma D option strsize=4096

BEGIN
{
	s = "0123456789abcdef";
	s = strjoin(s, s); s = strjoin(s, s); s = strjoin(s, s);
	s = strjoin(s, s); s = strjoin(s, s); s = strjoin(s, s);
	s = strjoin(s, s);
	printf("%d %s\n", strlen(s), substr(s, 2032));
	exit(0);
}
