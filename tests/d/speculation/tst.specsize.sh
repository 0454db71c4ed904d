# specsize bounds one speculation's records on a CPU: a record that does
# not fit is a speculative drop, counted exactly once the speculation is
# committed (a discarded one's drops are never reported, as DTrace adds a
# speculative buffer's drops only at commit); the ones that fit are
# committed. Each record here is 24 bytes (header, tag, one value), so a
# 60-byte specsize holds two of the five.
$DTRACE -q -x specsize=60 -n '
BEGIN { d = speculation(); }
BEGIN { speculate(d); printf("%d\n", 10); }
BEGIN { speculate(d); printf("%d\n", 20); }
BEGIN { speculate(d); printf("%d\n", 30); }
BEGIN { speculate(d); printf("%d\n", 40); }
BEGIN { discard(d); }
BEGIN { s = speculation(); }
BEGIN { speculate(s); printf("%d\n", 1); }
BEGIN { speculate(s); printf("%d\n", 2); }
BEGIN { speculate(s); printf("%d\n", 3); }
BEGIN { speculate(s); printf("%d\n", 4); }
BEGIN { speculate(s); printf("%d\n", 5); }
BEGIN { commit(s); }
BEGIN { exit(0); }' 2>&1
