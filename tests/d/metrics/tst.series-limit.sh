# -x metricslimit bounds the series a scrape returns (each bucket of a
# histogram is one); dtrace_metrics_dropped_series says how many the
# latest snapshot left out.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
$DTRACE -q -x metrics="$port" -x metricslimit=3 -x aggrate=50ms -n '
  BEGIN { @c[1] = count(); @c[2] = count(); @c[3] = count(); @c[4] = count(); @c[5] = count(); }
  tick-100ms /++ticks == 10/ { exit(0); }' >/dev/null &
pid=$!
python3 - "$port" <<'PY'
import sys, time, urllib.request
url = "http://127.0.0.1:%s/metrics" % sys.argv[1]
for _ in range(100):
    try:
        body = urllib.request.urlopen(url, timeout=2).read().decode()
        if "dtrace_c_total" in body:
            break
    except OSError:
        pass
    time.sleep(0.05)
print("\n".join(l for l in body.splitlines() if l.startswith("dtrace_c_") or "dropped" in l))
PY
wait "$pid"
