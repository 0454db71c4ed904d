# -G and -h compile the program without running it (-G of a probe
# description writes d.out); -32 is refused for tracing with one line, and
# nothing runs; -64 is the data model there is.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
$DTRACE -G -n 'BEGIN { printf("ran\n"); exit(0); }' 2>&1
echo "status $?"
ls
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
