# An action used as a value is checked as a void function first, as illumos
# cooks it: the error in its arguments or in what uses it comes first, and
# only a program otherwise right gets D_CG_EXPR.
check() { $DTRACE -x errtags -e -n "$1"; }
check 'BEGIN { x = trace(); }'
check 'BEGIN { x = progenyof(trace()); }'
check 'BEGIN { x = stringof(trace(0)); }'
check 'BEGIN { x = (char)trace(1); }'
check 'BEGIN { x = 123 + -trace(0); }'
check 'BEGIN { x = 1 ? trace(0) : trace(1); }'
check 'BEGIN { x = (trace(1), 2); }'
check 'BEGIN { printf("%s\n", printf("x")); }'
check 'BEGIN { p -= trace(0); }'
check 'BEGIN { x = trace(1); }'
exit 1
