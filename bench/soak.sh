#!/usr/bin/env bash
# Soak: getppid(2) at RATE calls per second (1 M by default) for SECONDS
# (60) on one CPU, under `@[probefunc] = count()` and one printf record per
# call streamed to a file (-o). Nothing may go missing unaccounted:
#   the aggregation's total equals the calls the workload says it made;
#   records printed + drops reported equals the calls.
# A machine that cannot make RATE calls a second traced makes as many as it
# can; the workload reports the rate it reached.
#   bench/soak.sh [path/to/dtrace]      (RATE=, DURATION=, CPU= to change;
#                                        FLAGS="-b 64k" adds dtrace options)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
rate=${RATE:-1000000}
secs=${DURATION:-60}
cpu=${CPU:-1}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cc -O2 -o "$dir/paced" "$here/paced_getppid.c"

# shellcheck disable=SC2086 # FLAGS are words
/usr/bin/time -f '%e %U %S %M' -o "$dir/time" "$dtrace" ${FLAGS:-} -q -o "$dir/records" -n '
  syscall::getppid:entry /pid == $target/ { @[probefunc] = count(); printf("e %d\n", arg0); }
  END { printa("total %@d\n", @); }' -c "$dir/paced $rate $secs $cpu" >"$dir/workload" 2>"$dir/err"

calls=$(awk '$1 == "calls" { print $2 }' "$dir/workload")
reached=$(awk '$1 == "rate" { print $2 }' "$dir/workload")
ran=$(awk '$1 == "seconds" { print $2 }' "$dir/workload")
total=$(awk '$1 == "total" { print $2 }' "$dir/records")
records=$(grep -c '^e ' "$dir/records" || true)
drops=$(awk '/ drops? on CPU/ && !/aggregation/ { s += $2 } END { print s + 0 }' "$dir/err")
aggdrops=$(awk '/aggregation drops? on CPU/ { s += $2 } END { print s + 0 }' "$dir/err")
read -r wall user sys rss <"$dir/time"
other=$(grep -v -E ' drops? on CPU' "$dir/err" || true)

printf 'workload: %d calls in %s s on CPU %s (%s calls/s asked, %s reached)\n' \
  "$calls" "$ran" "$cpu" "$rate" "$reached"
printf 'aggregation total %d (%d aggregation drops): %s\n' "$total" "$aggdrops" \
  "$([ "$total" -eq "$calls" ] && echo exact || echo "OFF BY $((calls - total))")"
printf 'records %d + drops %d = %d: %s\n' "$records" "$drops" "$((records + drops))" \
  "$([ $((records + drops)) -eq "$calls" ] && echo exact || echo "OFF BY $((calls - records - drops))")"
printf 'dtrace: %.1f s wall, %.1f s user + %.1f s system (%.0f %% of a CPU), %d MiB peak RSS\n' \
  "$wall" "$user" "$sys" "$(echo "($user + $sys) * 100 / $wall" | bc -l)" $((rss / 1024))
[ -z "$other" ] || { echo "dtrace's other messages:"; echo "$other"; }
[ "$total" -eq "$calls" ] && [ $((records + drops)) -eq "$calls" ]
