# Descriptions the pid provider refuses, each with DTrace's message: an
# invalid pid, a function the module lacks, a name that is neither entry,
# return nor an offset, an offset between instructions or past the end.
w="$WORKLOADS/pidfuncs"
$DTRACE -n 'pid0:::entry {}'
$DTRACE -c "$w" -n 'pid$target:a.out:no_such_function:entry {}'
$DTRACE -c "$w" -n 'pid$target:a.out:main:beginning {}'
$DTRACE -c "$w" -n 'pid$target:a.out:add8:2 {}'
$DTRACE -c "$w" -n 'pid$target:a.out:add8:ffff {}'
$DTRACE -c "$w" -n 'pid$target:libc.so.6:-:1000 {}'
exit 1
