# Subroutines Linux cannot give keep DTrace's prototypes: a wrong call gets
# DTrace's error, a right one the refusal.
check() { $DTRACE -x errtags -e -n "$1"; }
check 'BEGIN { copyout("a", "b", "c"); }'
check 'BEGIN { copyoutstr("a", 1); }'
check 'BEGIN { breakpoint(1, 2); }'
check 'BEGIN { panic("x"); }'
check 'BEGIN { mutex_owned("x"); }'
check 'BEGIN { x = mutex_owned((void *)arg0); }'
check 'BEGIN { copyout(alloca(1), arg0, 1); }'
exit 1
