# With nspec IDs in use, speculation() returns 0 and each failure is
# counted once, in DTrace's words; a committed ID is free again at once.
$DTRACE -q -x nspec=2 -n '
BEGIN { a = speculation(); b = speculation(); c = speculation(); d = speculation(); }
BEGIN { printf("%d %d %d %d\n", a, b, c, d); }
BEGIN { speculate(a); printf("from a\n"); }
BEGIN { commit(a); }
BEGIN { printf("again %d\n", speculation()); exit(0); }' 2>&1
