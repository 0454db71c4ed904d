# A string holds strsize characters, as in illumos: with strsize=8 an
# 8-character string is kept whole and a 9-character one loses its last
# character, in variables, strlen(), sizeof, substr(), lltostr(), indexing,
# trace() and aggregation keys; substr() and basename() of a longer literal
# see its first strsize characters, as illumos bounds its strlen. strjoin()'s
# result, with its NUL, must fit strsize (illumos's out of scratch space
# otherwise).
$DTRACE -x strsize=8 -q -n '
BEGIN
{
	eight = "abcdefgh";
	nine = "abcdefghi";
	self->t = "12345678";
	printf("[%s] [%s] [%s]\n", eight, nine, self->t);
	printf("%d %d %d %d %d\n", strlen(eight), strlen(nine), strlen("abcdefghijk"),
	    sizeof(eight), sizeof(string));
	printf("[%s] [%s] [%s]\n", substr(nine, 0), substr(nine, 1), substr(nine, 0, 8));
	printf("[%s] [%s]\n", lltostr(12345678), lltostr(-12345678));
	printf("%c %d\n", eight[7], nine[8]);
	printf("[%s]\n", strjoin("abc", "defg"));
	printf("[%s] [%s]\n", toupper(eight), basename("/x/abcdefgh"));
	trace(eight);
	printf("\n");
	@[eight] = count();
	@[nine] = count();
	@[substr("xxabcdefgh", 2)] = count();
	@[substr(nine, 0, 8)] = count();
}
ERROR { printf("fault %d\n", arg4); }
BEGIN { trace(strjoin("abcd", "efgh")); }
BEGIN { exit(0); }'
