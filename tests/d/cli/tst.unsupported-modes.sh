# -G and -h (USDT object and header generation) and -32 are refused with one
# line, and nothing runs; -64 is the data model there is.
$DTRACE -G -n 'BEGIN { printf("ran\n"); exit(0); }' 2>&1
echo "status $?"
$DTRACE -h -s /dev/null 2>&1
echo "status $?"
$DTRACE -Gl 2>&1
echo "status $?"
$DTRACE -32 -qn 'BEGIN { printf("ran\n"); exit(0); }' 2>&1
echo "status $?"
$DTRACE -64 -qn 'BEGIN { printf("ran 64\n"); exit(0); }' 2>&1
echo "status $?"
$DTRACE -32 -64 -qn 'BEGIN { printf("last one wins\n"); exit(0); }' 2>&1
echo "status $?"
