# strlen() is bounded by strsize: a literal longer than a string can hold
# counts as much of it as a string variable keeps.
$DTRACE -x strsize=4 -q -n '
BEGIN
{
	s = "abcdefg";
	printf("%d %d %d [%s] [%s]\n", strlen("abcdefg"), strlen(s), strlen("ab"), s, "abcdefg");
	exit(0);
}'
