# Macros in probe descriptions: $1, $$1 and $name, each replaced in its
# field, as dtrace_xstr2desc does.
$DTRACE -qn 'syscall::$$1:entry { printf("%s\n", probefunc); exit(0); }' getppid
$DTRACE -qn 'syscall::$1:entry { printf("%s\n", probefunc); exit(0); }' getppid
