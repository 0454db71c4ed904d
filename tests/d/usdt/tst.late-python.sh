# System-wide USDT: `python*:::line` is the object's provider, traced
# through path-wide uprobes, so a python3 started after tracing began
# fires it too (its semaphore raised by the kernel as it maps the object).
# A sleeping python3 of the test's own gives the description an object to
# match when dtrace starts; a later one calls late_function 25 times.
python=/usr/bin/python3.11
[ -x "$python" ] || python=$(command -v python3)
work=$(mktemp -d)
"$python" -c 'import time; time.sleep(300)' &
anchor=$!
trap 'kill $anchor $dtrace 2>/dev/null; rm -rf "$work"' EXIT
cat >"$work/late.py" <<'PY'
def late_function(i):
    return i
for i in range(25):
    late_function(i)
PY
object=$(basename "$(readlink -f "$python")")
for _ in $(seq 100); do
  grep -q "/$object\$" "/proc/$anchor/maps" 2>/dev/null && break
  sleep 0.05
done

$DTRACE -q -o "$work/out" -n '
  BEGIN { printf("tracing\n"); }
  python*:::line /copyinstr(arg1) == "late_function"/ { @ = count(); }
  END { printa("late_function lines: %@d\n", @); }' 2>"$work/err" &
dtrace=$!
for _ in $(seq 300); do
  grep -q tracing "$work/out" 2>/dev/null && break
  kill -0 $dtrace 2>/dev/null || break
  sleep 0.1
done
grep -q tracing "$work/out" 2>/dev/null || { cat "$work/err" >&2; exit 1; }

"$python" "$work/late.py"

kill -INT $dtrace
for _ in $(seq 100); do
  kill -0 $dtrace 2>/dev/null || break
  sleep 0.1
done
kill -KILL $dtrace 2>/dev/null  # still running: fails below
wait $dtrace || { cat "$work/err" >&2; exit 1; }
cat "$work/out"
