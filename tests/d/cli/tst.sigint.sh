# SIGINT ends tracing cleanly: END runs and aggregations print.
f=$(mktemp)
trap 'rm -f "$f"' EXIT
$DTRACE -q -o "$f" -n 'BEGIN { printf("started\n"); @n["x"] = sum(5); } END { printf("ended\n"); }' &
pid=$!
for i in $(seq 100); do grep -q started "$f" && break; sleep 0.05; done
kill -INT $pid
wait $pid
echo "status $?"
cat "$f"
