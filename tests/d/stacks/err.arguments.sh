# DTrace's checks of stack(), ustack(), jstack() and the symbol functions:
# prototypes first (optional uint32_t frame counts, a uintptr_t address),
# then the constants; and they are values only as aggregation keys and
# printf() arguments.
check() { $DTRACE -x errtags -e -n "$1"; }
check 'BEGIN { stack("frames"); }'
check 'BEGIN { stack(1, 2); }'
check 'BEGIN { stack(-1); }'
check 'BEGIN { stack(arg0); }'
check 'BEGIN { ustack(1, 10, "x"); }'
check 'BEGIN { ustack(0); }'
check 'BEGIN { ustack(4, -1); }'
check 'BEGIN { ustack(4, arg0); }'
check 'BEGIN { jstack(0); }'
check 'BEGIN { sym(); }'
check 'BEGIN { usym("main"); }'
check 'BEGIN { uaddr(1, 2); }'
check 'BEGIN { x = stack(); }'
check 'BEGIN { trace(ufunc(arg0)); }'
check 'BEGIN { printf("%d", ustack()); }'
check 'BEGIN { printf("%k", arg0); }'
check 'BEGIN { @[stack()] = count(); @[ustack()] = count(); }'
check 'BEGIN { @[sym(arg0)] = count(); @[arg0] = count(); }'
exit 1
