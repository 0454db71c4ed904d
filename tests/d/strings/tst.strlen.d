/* strlen() counts the bytes before the NUL; stringof() of a string is itself. */
#pragma D option quiet

BEGIN
{
	s = "hello";
	printf("%d %d %d %d\n", strlen(s), strlen(""), strlen(execname), strlen(stringof(s)));
	printf("%d\n", strlen(probename) == 5);
	exit(0);
}
