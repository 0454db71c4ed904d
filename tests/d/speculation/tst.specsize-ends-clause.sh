# speculate() takes room for the clause's whole record in specsize, as
# dtrace_probe() reserves ecb->dte_needed in the speculative buffer; when
# there is none, the drop ends the clause there (CPU_DTRACE_DROP stops its
# actions), so the statements after it do not run. Each record here is 24
# bytes (header, tag, one value): a 40-byte specsize holds one.
$DTRACE -q -x specsize=40 -n '
BEGIN { s = speculation(); }
BEGIN { speculate(s); printf("%d\n", 1); ran++; }
BEGIN { speculate(s); printf("%d\n", 2); ran++; }
BEGIN { commit(s); }
BEGIN { printf("%d clause ran on\n", ran); exit(0); }' 2>&1
