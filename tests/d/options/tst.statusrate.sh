# With statusrate set, exit() ends tracing at the next status check, as
# dtrace(1M) learns of it, and no probe records anything meanwhile; by
# default, at once.
$DTRACE -q -x statusrate=2sec -n '
  tick-100ms /n++ == 2/ { exit(0); ts = timestamp; }
  tick-100ms /n > 3/ { printf("recorded after exit()\n"); }
  END { printf("%s\n", timestamp - ts >= 1000000000 ? "END a status check later" : "END too early"); }'
$DTRACE -q -n '
  tick-100ms /n++ == 2/ { exit(0); ts = timestamp; }
  END { printf("%s\n", timestamp - ts < 500000000 ? "default: END at once" : "default: END late"); }'
