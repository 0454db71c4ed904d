# A scrape returns the aggregations as they are when it comes, not as the
# last aggrate tick left them: with aggrate at 10 s, calls made between two
# scrapes a moment apart show in the second.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The workload under a name of its own: other tests' getppid may run meanwhile.
cp "$WORKLOADS/getppid" "$work/scrape-getppid"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
$DTRACE -q -x metrics="$port" -x aggrate=10s -n '
  syscall::getppid:entry /execname == "scrape-getppid"/ { @calls = count(); }
  tick-100ms /++ticks == 100/ { exit(0); }' >/dev/null &
pid=$!
scrape() {
  python3 - "$port" <<'PY'
import sys, time, urllib.request
for _ in range(100):
    try:
        body = urllib.request.urlopen("http://127.0.0.1:%s/metrics" % sys.argv[1], timeout=5).read()
        break
    except OSError:
        time.sleep(0.1)
lines = [l for l in body.decode().splitlines() if l.startswith("dtrace_calls_total")]
print(lines[0] if lines else "dtrace_calls_total absent")
PY
}
scrape
"$work/scrape-getppid" 5
scrape
"$work/scrape-getppid" 7
scrape
kill -INT "$pid"
wait "$pid"
