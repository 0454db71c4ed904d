/* strjoin, toupper and tolower, nested and on every kind of string. */
#pragma D option quiet

BEGIN
{
	s = strjoin("foo", "bar");
	printf("%s %s %s\n", s, toupper(s), tolower("MiXeD 42 ÄZ"));
	printf("%s\n", strjoin(strjoin("a", "b"), toupper(execname)));
	printf("%d %d\n", strlen(strjoin(s, s)), strjoin("", "") == "");
	@[toupper(probename)] = count();
	exit(0);
}
