# -l with -f, -m and -n globs.
$DTRACE -l -f getppid | sed -E 's/^ *[0-9]+ /   ID /'
$DTRACE -l -n 'dtrace:::BEG*' -n ':::E?D'
$DTRACE -l -m nosuchmodule 2>&1
echo "status $?"
