# nspec: dtrace_state_go() allocates the speculations first, and none
# (nspec=0) or more than INT_MAX fails with ENOMEM, with or without
# speculation() in the program.
p='BEGIN { s = speculation(); printf("%d\n", s); exit(0); }'
$DTRACE -q -x nspec=0 -n "$p" 2>&1
$DTRACE -q -x nspec=0 -n 'BEGIN { exit(0); }' 2>&1
$DTRACE -q -x nspec=4294967296 -n "$p" 2>&1
$DTRACE -q -x nspec=4294967297 -n "$p" 2>&1
$DTRACE -q -x nspec=2147483648 -n "$p" 2>&1
$DTRACE -q -x nspec=3 -n "$p" 2>&1
