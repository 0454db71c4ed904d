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
$DTRACE -w -x errtags -e -n 'BEGIN { speculate(1); raise(9); }'
$DTRACE -x errtags -e -n 'BEGIN { speculate(1, 2); }'
exit 1
