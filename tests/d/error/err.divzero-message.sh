# The fault message names the enabled probe, the probe, the fault and the action.
$DTRACE -q -n 'BEGIN { x = 0; y = 10 % x; } BEGIN { exit(1); }' 2>&1 >/dev/null | sed -E 's/DIF offset [0-9]+/DIF offset N/' >&2
exit 1
