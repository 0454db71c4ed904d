# strjoin() whose result does not fit strsize is out of scratch space, as in
# illumos; one that just fits is joined.
$DTRACE -x strsize=8 -q -n '
BEGIN { printf("[%s] [%s]\n", strjoin("abc", "defg"), strjoin("", "abcdefg")); }
BEGIN { a = "abcd"; b = "efgh"; trace(strjoin(a, b)); }
ERROR { printf("fault %d\n", arg4); }
BEGIN { trace(strjoin(strjoin("abcd", "e"), "fgh")); }
BEGIN { exit(0); }'
