# With a tiny principal buffer some records may be dropped, but every firing
# is accounted for: records printed + drops reported = firings.
n=200000
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
$DTRACE -b 4k -q -n 'syscall::getppid:entry /pid == $target/ { printf("x\n"); }' \
  -c "$WORKLOADS/getppid $n" >"$out" 2>"$err"
printed=$(grep -c '^x$' "$out")
dropped=$(awk '/drops? on CPU/ { s += $2 } END { print s + 0 }' "$err")
echo "accounted $(( printed + dropped == n ))"
