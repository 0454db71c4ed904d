# DTrace's rules on what may follow speculate() and commit() in a clause,
# each refused with its tag at the action that breaks it.
check() { $DTRACE -x errtags -e -n "BEGIN { $1 }"; }
check 'speculate(1); speculate(1);'
check 'commit(1); speculate(1);'
check 'trace(1); speculate(1);'
check 'speculate(1); @a = count();'
check 'speculate(1); exit(0);'
check 'commit(1); commit(1);'
check 'trace(1); commit(1);'
check 'commit(1); @a = count();'
check 'commit(1); trace(1);'
# Each statement is checked as it is added (dt_stmt_append): what breaks
# a rule first is refused, not an aggregation further on.
check 'commit(1); commit(2); @a = count();'
check 'commit(1); trace(1); @a = count();'
$DTRACE -w -x errtags -e -n 'BEGIN { speculate(1); raise(9); }'
# Destructive subroutines Linux lacks are still destructive actions: the
# rule is broken before they are refused; a clause that keeps the rules
# gets the refusal.
$DTRACE -w -x errtags -e -n 'BEGIN { speculate(1); copyoutstr("x", 0, 2); }'
$DTRACE -w -x errtags -e -n 'BEGIN { speculate(1); panic(); }'
$DTRACE -w -x errtags -e -n 'BEGIN { panic(); } END { speculate(1); breakpoint(); }'
$DTRACE -w -x errtags -e -n 'BEGIN { commit(1); copyout(0, 0, 1); }'
$DTRACE -x errtags -e -n 'BEGIN { speculate(1, 2); }'
exit 1
