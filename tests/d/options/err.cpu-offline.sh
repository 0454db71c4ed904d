# A CPU that is not online cannot trace.
$DTRACE -q -x cpu=4096 -n 'BEGIN { exit(0); }'
