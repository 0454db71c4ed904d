# A size of 0 is a size, not the default (dtrace_state_go): a buffer the
# enabling needs under 8 bytes fails with ENOSPC; bufsize is raised for a
# program that aggregates (its scratch), and a size nothing needs is fine.
p='BEGIN { printf("hi\n"); exit(0); }'
$DTRACE -q -x bufsize=0 -n "$p" 2>&1
$DTRACE -q -x bufsize=7 -n "$p" 2>&1
$DTRACE -q -x bufsize=8 -n "$p" 2>&1
$DTRACE -q -x aggsize=0 -n 'BEGIN { @ = count(); exit(0); }' 2>&1
$DTRACE -q -x aggsize=0 -n "$p" 2>&1
$DTRACE -q -x bufsize=0 -n 'BEGIN { @ = count(); exit(0); }' 2>&1
spec='BEGIN { s = speculation(); speculate(s); printf("spec\n"); } BEGIN { commit(s); } BEGIN { exit(0); }'
$DTRACE -q -x specsize=0 -n "$spec" 2>&1
$DTRACE -q -x specsize=0 -n "$p" 2>&1
