#!/usr/bin/env bash
# How long a Prometheus scrape of 100,000 series takes (-x metrics), and
# that it adds no drops: a getppid loop makes 100,000 keys of one count()
# aggregation (and a quantize() of 64 bucket series), then the endpoint is
# scraped $SCRAPES times while the loop's process stays traced.
#   bench/metrics-scrape.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dtrace=${1:-$here/../build/dtrace}
series=${SERIES:-100000}
scrapes=${SCRAPES:-9}
. "$here/lib.sh"
build_loops
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$dtrace" -q -x metrics="$port" -x metricslimit=1000000 -x aggsize=256m -x aggrate=1s -n "
  syscall::getppid:entry /execname == \"loop\"/ { @calls[n++] = count(); @lat = quantize(n); }
  tick-1s /++seconds == 60/ { exit(0); }" >/dev/null &
pid=$!
until python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null; do
  sleep 0.1
done
$pinned"$tmp/loop" "$series" >/dev/null
python3 - "$port" "$series" "$scrapes" "$pid" <<'PY'
import os, statistics, sys, time, urllib.request
url = "http://127.0.0.1:%s/metrics" % sys.argv[1]
series, scrapes = int(sys.argv[2]), int(sys.argv[3])
def scrape():
    start = time.perf_counter()
    body = urllib.request.urlopen(url, timeout=10).read()
    return time.perf_counter() - start, body.decode()
for _ in range(600):  # until a snapshot holds every key
    try:
        _, body = scrape()
        if body.count("dtrace_calls_total{") >= series:
            break
    except OSError:
        pass
    time.sleep(0.1)
times = []
for _ in range(scrapes):
    t, body = scrape()
    times.append(t)
lines = [l for l in body.splitlines() if not l.startswith("#")]
drops = [l for l in lines if l.startswith("dtrace_drops_total")]
print("series in a scrape: %d (%d bytes)" % (len(lines), len(body)))
print("scrape time: median %.3f s, max %.3f s over %d scrapes" %
      (statistics.median(times), max(times), len(times)))
print("drops reported: %s" % (", ".join(drops) if drops else "none"))
# dtrace's own CPU time while idle: the snapshot it takes every aggrate
# (1 s), in the consumer's thread. /proc/PID/task/*/stat: utime + stime.
def cpu_seconds():
    total = 0
    for task in os.listdir("/proc/%s/task" % sys.argv[4]):
        with open("/proc/%s/task/%s/stat" % (sys.argv[4], task)) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")
before, start = cpu_seconds(), time.monotonic()
time.sleep(5)
print("dtrace CPU per second with these keys (one snapshot a second): %.3f s" %
      ((cpu_seconds() - before) / (time.monotonic() - start)))
PY
kill -INT "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
