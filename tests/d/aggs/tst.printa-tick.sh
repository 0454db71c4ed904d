# printa() in a tick-1s clause prints the table every second: each second's
# getppid calls of a workload that makes one every 100 ms, cleared after
# printing, so each table shows only that second's calls (about 10: the
# scheduler moves a few across seconds). Three tables print, and the
# aggregation, printed already, is not printed again at exit.
$DTRACE -q -c "$WORKLOADS/getppid 50 100" -n '
syscall::getppid:entry /pid == $target/ { @calls["getppid"] = count(); }
tick-1s /++n <= 3/ { printf("second %d:", n); printa(@calls); clear(@calls); }
tick-1s /n == 3/ { exit(0); }' |
  awk '/getppid/ { $2 = ($2 >= 5 && $2 <= 15) ? "about-10" : $2 } { print }'
