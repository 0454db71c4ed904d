# -l -i lists probes by ID (as -l numbers them), each description in turn
# as dtrace(1M) lists them (a probe named twice is listed twice); -l -P/-f
# take the same arguments as tracing does, predicate and actions included.
$DTRACE -l -i 1
$DTRACE -l -i 2 -n 1 -i 1
$DTRACE -l -P dtrace'/probename == "END"/{ exit(0); }'
$DTRACE -l -f getppid'{}' | sed -E 's/^ *[0-9]+ /   ID /'
$DTRACE -l -i 99999999 2>&1
echo "status $?"
