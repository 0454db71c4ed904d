# Keywords are member names after . and -> (atomic_t has a `counter`).
$DTRACE -qn 'BEGIN { printf("%d %d\n", curthread->mm->mm_users.counter > 0,
    curthread->usage.refs.counter > 0); exit(0); }'
