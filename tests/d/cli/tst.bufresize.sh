# With bufresize=auto (the default) a principal buffer too large to allocate
# is halved until it can be, and dtrace says so even with -q; with
# bufresize=manual the size is refused. (How far it is lowered depends on the
# machine's memory.)
$DTRACE -b 1t -qn 'BEGIN { printf("auto\n"); exit(0); }' 2>&1 |
  sed -E 's/lowered to [0-9]+[kmg]$/lowered to SIZE/'
$DTRACE -qn '#pragma D option bufresize=auto
#pragma D option bufsize=100t
BEGIN { printf("pragma\n"); exit(0); }' 2>&1 |
  sed -E 's/lowered to [0-9]+[kmg]$/lowered to SIZE/'
$DTRACE -b 1t -x bufresize=manual -qn 'BEGIN { printf("manual\n"); exit(0); }' 2>&1
echo "status $?"
# A size that fits is not reported.
$DTRACE -b 64k -x bufresize=manual -qn 'BEGIN { printf("64k\n"); exit(0); }' 2>&1
