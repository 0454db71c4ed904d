# args[] and uregs[] take a constant index their probe or the registers have.
check() { $DTRACE -x errtags -e -n "$1"; }
check 'syscall::read:entry { trace(args[3]); }'
check 'syscall::read*:entry { trace(args[0]); }'
check 'syscall:::entry { trace(args[0]); }'
check 'syscall::read:entry, syscall::open:entry { trace(args[1]); }'
check 'syscall::read:entry { trace(args[arg0]); }'
check 'syscall::read:entry { trace(args[1, 2]); }'
check 'BEGIN { trace(args[0]); }'
check 'BEGIN { trace(args); }'
check 'BEGIN { trace(uregs[R_TRAPNO]); }'
check 'BEGIN { i = R_PC; trace(uregs[i]); }'
check 'BEGIN { trace(uregs[-1]); }'
check 'int uregs;'
check 'BEGIN { R_PC = 1; }'
exit 1
