# Options apply in command-line order, as dtrace(1M)'s second pass sets
# them: -q then -x quiet=no is not quiet; "-x quiet=" (an empty value)
# unsets quiet; a script's `#pragma D option quiet=no` wins over -q, as
# dtrace(1M) reads quiet back after compiling; DTRACE_OPT_QUIET comes
# before the command line.
f=$(mktemp --suffix=.d)
trap 'rm -f "$f"' EXIT
printf '#pragma D option quiet=no\nBEGIN { trace(1); exit(0); }\n' > "$f"
$DTRACE -q -x quiet=no -n 'BEGIN { trace(1); exit(0); }' 2>&1 | grep -c 'matched 1 probe'
$DTRACE -x quiet= -n 'BEGIN { trace(2); exit(0); }' 2>&1 | grep -c 'matched 1 probe'
$DTRACE -x quiet=no -q -n 'BEGIN { printf("quiet after all\n"); exit(0); }' 2>&1
$DTRACE -q -s "$f" 2>&1 | grep -c 'matched 1 probe'
DTRACE_OPT_QUIET=yes $DTRACE -n 'BEGIN { printf("quiet from the environment\n"); exit(0); }' 2>&1
DTRACE_OPT_QUIET=yes $DTRACE -x quiet=no -n 'BEGIN { exit(0); }' 2>&1 | grep -c 'matched 1 probe'
# A value an option refuses in the environment is ignored.
DTRACE_OPT_BUFSIZE=lots $DTRACE -q -n 'BEGIN { printf("bad variable ignored\n"); exit(0); }'
