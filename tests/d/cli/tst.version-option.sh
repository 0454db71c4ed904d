# -x version and `#pragma D option version` take a D version this compiler
# has (1.0 to 1.13): a malformed one is EDT_VERSINVAL, an unknown one
# EDT_VERSUNDEF.
$DTRACE -x version=1.13 -qn 'BEGIN { printf("1.13\n"); exit(0); }'
$DTRACE -x version=1.2.1 -qn 'BEGIN { printf("1.2.1\n"); exit(0); }'
$DTRACE -x version=abc -n 'BEGIN { exit(0); }' 2>&1
$DTRACE -x version=99.0 -n 'BEGIN { exit(0); }' 2>&1
$DTRACE -x version=1.13.0.1 -n 'BEGIN { exit(0); }' 2>&1
$DTRACE -x version=256.0 -n 'BEGIN { exit(0); }' 2>&1
$DTRACE -qn '#pragma D option version=abc
BEGIN { exit(0); }' 2>&1
$DTRACE -qn '#pragma D option version=1.14
BEGIN { exit(0); }' 2>&1
echo "status $?"
