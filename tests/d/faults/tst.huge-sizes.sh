# Sizes far beyond the machine: as DTrace, a buffer, aggregation or
# dynamic variable size the kernel cannot give is lowered (and dtrace says
# to what: within a sixteenth of physical memory, so the figure depends on
# the machine); with bufresize=manual it is refused in one line; a strsize
# whose strings cannot fit the per-CPU scratch space is refused in one line,
# one beyond 32 bits as dt_opt_strsize() refuses it (EOVERFLOW).
prog='BEGIN { self->s = execname; a[execname] = 1; @[execname] = count();
  printf("%s %d\n", self->s, a[execname]); exit(0); }'
for x in bufsize=100t aggsize=100t dynvarsize=100t; do
  echo "-x $x:"
  $DTRACE -x $x -qn "$prog" 2>&1 | sed -E 's/lowered to [0-9]+[kmgt]?( bytes)?$/lowered to SIZE/'
  echo "status ${PIPESTATUS[0]}"
done
for x in bufsize=100t aggsize=100t dynvarsize=100t; do
  echo "-x $x -x bufresize=manual:"
  $DTRACE -x $x -x bufresize=manual -qn "$prog" 2>&1
  echo "status ${PIPESTATUS[0]}"
done
for x in strsize=1g strsize=100t; do
  echo "-x $x:"
  $DTRACE -x $x -qn "$prog" 2>&1
  echo "status ${PIPESTATUS[0]}"
done
