# $1.. are macro arguments: integers, or strings with $$1.
$DTRACE -qn 'BEGIN { printf("%d %s %d\n", $1 + 1, $$2, $3); exit(0); }' 41 hello 0x10
