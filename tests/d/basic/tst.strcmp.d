/* Strings compare as strcmp does. */
#pragma D option quiet

BEGIN
{
	s = "abc";
	printf("%d %d %d %d\n", s == "abc", s != "abc", s < "abd", s > "ab");
	printf("%d %d\n", "" < "a", execname == "dtrace");
	exit(0);
}
