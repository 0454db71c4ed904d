# A distribution's keys take room for the buckets they use, not for all of
# them: 200 quantize() keys of one bucket each fit in a 32 KiB aggregation
# buffer per CPU, with no aggregation drop (a kilobyte per key, as
# DTrace's buffers hold them, would drop most).
$DTRACE -q -x aggsize=32k -n '
BEGIN { i = 0; }
tick-1ms /i < 200/ { @q[i] = quantize(i); i++; }
tick-1ms /i == 200/ { exit(0); }' >keys.$$ 2>drops.$$
echo "keys $(grep -c Distribution keys.$$)"
echo "drop messages $(grep -c drops drops.$$)"
rm -f keys.$$ drops.$$
