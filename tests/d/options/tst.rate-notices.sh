# dtrace_state_go() keeps the status rate at most 10 seconds and the
# cleaning rate within 200 us and 60 s (0 is 60 s); dtrace(1M)'s go()
# says so, quiet or not. exit() is then noticed within 10 seconds.
start=$(date +%s)
$DTRACE -q -x statusrate=20s -n 'tick-100ms { exit(0); }' 2>&1
end=$(date +%s)
[ $((end - start)) -le 12 ] && echo "ended within the capped status rate"
$DTRACE -q -x cleanrate=1ns -n 'BEGIN { exit(0); }' 2>&1
$DTRACE -q -x cleanrate=0 -n 'BEGIN { exit(0); }' 2>&1
$DTRACE -q -x cleanrate=2min -n 'BEGIN { exit(0); }' 2>&1
$DTRACE -q -x cleanrate=10hz -x statusrate=5s -n 'BEGIN { exit(0); }' 2>&1
