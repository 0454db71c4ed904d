# What proc refuses: a probe it has no source for, an argument a probe does
# not have, -> on an integer argument.
$DTRACE -n 'proc:::no-such-probe {}'
$DTRACE -n 'proc:::create { trace(args[1]); }'
$DTRACE -n 'proc:::exit { trace(args[0]->pr_pid); }'
exit 1
