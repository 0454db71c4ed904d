# dtrace -l lists the USDT providers of every running process, as illumos
# lists every provider a process registered: a python3 of the test's own,
# which dtrace did not start, is listed as pythonPID (the same rows as
# `-l -n pythonPID:::`) by a bare -l, by -l -P 'python*' and by -lv.
python=/usr/bin/python3.11
[ -x "$python" ] || python=$(command -v python3)
"$python" -c 'import time; time.sleep(300)' &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
# Listed once its executable is mapped (bash forks before it execs).
object=$(basename "$(readlink -f "$python")")
for _ in $(seq 100); do
  grep -q "/$object\$" "/proc/$pid/maps" 2>/dev/null && break
  sleep 0.05
done

# Its rows, IDs left out and the pid as PID.
rows() { awk -v p="python$pid" '$2 == p { $1 = ""; sub(/^ /, ""); gsub(p, "pythonPID"); print }'; }

echo "dtrace -l:"
listed=$($DTRACE -l | rows | sort)
echo "$listed"
echo "rows: $(echo "$listed" | grep -c .)"
[ "$($DTRACE -l -n "python$pid:::" | rows | sort)" = "$listed" ] &&
  echo "the same rows as -l -n pythonPID:::"
echo "dtrace -l -P 'python*' rows: $($DTRACE -l -P 'python*' | rows | wc -l)"
echo "dtrace -lv rows: $($DTRACE -lv | rows | wc -l)"
