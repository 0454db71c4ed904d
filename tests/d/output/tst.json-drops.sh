# -x oformat=json reports lost data as "drop" objects in the output: with a
# tiny principal buffer some records are dropped, and every firing is
# accounted for: records written + the drops' counts = firings. The
# workload runs at real-time priority on CPU 1, where dtrace is kept too,
# so that dtrace cannot drain the buffer while it runs.
# run alone
n=200000
out=$(mktemp)
trap 'rm -f "$out"' EXIT
taskset -c 1 $DTRACE -b 4k -x oformat=json -q \
  -n 'syscall::getppid:entry /pid == $target/ { printf("x"); }' \
  -c "chrt -f 10 taskset -c 1 $WORKLOADS/getppid $n" >"$out" 2>/dev/null
records=$(jq -s '[.[] | select(.type == "record")] | length' "$out")
dropped=$(jq -s '[.[] | select(.type == "drop" and .kind == "principal") | .count] | add // 0' "$out")
echo "accounted $(( records + dropped == n ))"
jq -s -c '[.[] | select(.type == "drop")][0] | [.provider, .module, .["function"], .name, .kind]' "$out"
