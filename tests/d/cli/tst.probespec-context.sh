# -P, -m and -f compile their argument with its descriptions naming a
# provider, module or function, predicate and actions included; -i and -n
# name probes, and a number is a probe ID.
$DTRACE -qZP wassup'{printf("x");}' -qP profile'{printf("I am done"); exit(0);}'
echo "status $?"
$DTRACE -qP dtrace'/probename == "BEGIN"/{printf("provider %s\n", probeprov); exit(0);}'
$DTRACE -qf getppid'/pid == $target/{@calls[probename] = count();}' -c "$WORKLOADS/getppid 3"
$DTRACE -qi 1'{printf("probe id %d: %s\n", id, probename); exit(0);}'
$DTRACE -qP 'profile,dtrace/probename == "BEGIN"/{printf("list\n"); exit(0);}'
# The description reported is the argument up to its predicate or actions.
$DTRACE -P dtrace'/probename == "BEGIN"/{exit(0);}' 2>&1 >/dev/null
# Nothing but the context's field and those to its left may be given.
$DTRACE -e -m 'nosuchmodule{ trace(1); }' 2>&1
$DTRACE -e -f 'syscall:nosuchmodule:getppid{ trace(1); }' 2>&1
$DTRACE -e -P 'syscall:getppid{ trace(1); }' 2>&1
$DTRACE -e -P '1{ trace(1); }' 2>&1
echo "status $?"
