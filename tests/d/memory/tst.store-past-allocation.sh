# A store may go anywhere in the clause's scratch area, past what alloca()
# or copyin() gave out (illumos's dtrace_canstore): shellsnoop ends the
# bytes copyin() read with `t[n] = 0`. A load past them still faults
# (dtrace_canload), as does a store outside the area.
$DTRACE -q -n 'syscall::write:entry /pid == $target/ { self->b = arg1; }
  syscall::write:return /self->b/ {
    this->t = (char *)copyin(self->b, arg0); this->t[arg0] = 0;
    printf("[%s]\n", stringof(this->t)); self->b = 0;
  }' -c '/bin/echo hello'
$DTRACE -q -n 'BEGIN { s = (char *)alloca(15); s[16] = 65; s[15] = 66; printf("stored\n"); exit(0); }'
$DTRACE -q -n '
BEGIN { s = (char *)alloca(15); trace(s[16]); }
BEGIN { s = (char *)alloca(15); s[1 << 20] = 65; }
BEGIN { exit(0); }
' 2>&1 | sed -E 's/DIF offset [0-9]+/DIF offset N/; s/\(0x[0-9a-f]+\)/(ADDR)/'
