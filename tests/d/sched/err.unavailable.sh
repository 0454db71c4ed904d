# DTrace probes Linux gives no source for are refused with the reason when
# named, rather than matching nothing.
$DTRACE -n 'sched:::dequeue {}'
$DTRACE -n 'io:::wait-start {}'
$DTRACE -n 'tcp:::send {}'
exit 1
