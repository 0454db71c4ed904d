# -x scratchsize sizes the space alloca() and copyin() take in a clause:
# exactly that many bytes fit, one more faults, and a larger constant size
# is refused when the program is compiled.
$DTRACE -q -x scratchsize=64 -n '
BEGIN { this->p = (char *)alloca(56); this->q = (char *)alloca(8); this->q[7] = 7;
        printf("%d %d\n", this->q - this->p, this->q[7]); }
BEGIN { this->p = alloca(60); this->q = alloca(1); }
BEGIN { this->p = alloca(65 - 1); this->n = 65; this->q = alloca(this->n - 64); }
BEGIN { exit(0); }
' 2>&1 | sed -E 's/DIF offset [0-9]+/DIF offset N/'
$DTRACE -q -n '#pragma D option scratchsize=8
BEGIN { this->p = (char *)alloca(8); bcopy("abcdefgh", this->p, 8); printf("%c%c\n", this->p[0], this->p[7]); exit(0); }'
$DTRACE -x scratchsize=16 -n 'BEGIN { this->p = alloca(17); }' 2>&1
$DTRACE -x errtags -n '#pragma D option scratchsize=1k
BEGIN { this->p = alloca(1025); }' 2>&1
$DTRACE -x scratchsize=17k -n 'BEGIN { this->p = alloca(8); }' 2>&1
exit 0
