# An output file dtrace cannot write: one line naming it and the error,
# status 1. One it cannot open (a read-only file system, a directory) is
# refused before tracing starts; one that fills up (/dev/full) ends
# tracing at the first write that fails, as dtrace(1M) aborts processing.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
prog='BEGIN { printf("hello\n"); @ = count(); exit(0); }'

unshare --mount sh -c "mount -t tmpfs -o ro none $dir && $DTRACE -q -o $dir/out -n '$prog'" 2>&1 |
  sed "s|$dir|DIR|"
echo "read-only file system: status ${PIPESTATUS[0]}"
$DTRACE -q -o "$dir" -n "$prog" 2>&1 | sed "s|$dir|DIR|"
echo "a directory: status ${PIPESTATUS[0]}"
$DTRACE -q -o /dev/full -n "$prog" 2>&1
echo "-o /dev/full: status ${PIPESTATUS[0]}"
$DTRACE -q -n "$prog" 2>&1 >/dev/full
echo "stdout on /dev/full: status $?"
# Records every 10 ms: tracing ends at the first that cannot be written,
# long before the tick-10s that would end it otherwise.
start=$SECONDS
$DTRACE -q -o /dev/full -n 'tick-10ms { printf("tick\n"); } tick-10s { exit(0); }' 2>&1
echo "stream to /dev/full: status ${PIPESTATUS[0]}, ended early $((SECONDS - start < 5))"
