# A number is a probe ID, as dtrace -l lists them (BEGIN is 1).
$DTRACE -qn '1 { printf("begin\n"); exit(0); }'
$DTRACE -e -n '999999999 { }' 2>&1
echo "status $?"
