# -p traces a running process: $target is its pid, tracing ends when it exits.
sleep 0.5 &
pid=$!
$DTRACE -q -p $pid -n "BEGIN { printf(\"tracing %d\n\", \$target == $pid); }"
echo "status $?"
