# Each aggregating function as a metric family of its type, keys as
# labels (named by -x metricslabels where it names them, else keyN,
# escaped), histograms with cumulative buckets, the health
# counters (buffer switches growing each switchrate tick), the OpenMetrics variant when the scraper asks for it, and a
# stack-keyed aggregation and one named as a health metric left out, each
# with a message.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
$DTRACE -q -x metrics="$port" -x metricslabels=@c:name -x aggrate=50ms -n '
  BEGIN {
    @c["a\"b\\c", 3] = count(); @c["plain", -1] = count(); @c["plain", -1] = count();
    @s = sum(40); @s = sum(2);
    @mn = min(5); @mn = min(-3); @mx = max(9); @av = avg(1); @av = avg(2);
    @sd = stddev(2); @sd = stddev(4);
    @q = quantize(3); @q = quantize(3); @q = quantize(70);
    @l = lquantize(5, 0, 20, 10); @l = lquantize(25, 0, 20, 10);
    @st[stack()] = count(); @errors = count();
  }
  tick-100ms /++ticks == 15/ { exit(0); }' >/dev/null 2>"$work/err" &
pid=$!
python3 - "$port" <<'PY'
import re, sys, time, urllib.request
url = "http://127.0.0.1:%s/metrics" % sys.argv[1]
def get(accept=None):
    request = urllib.request.Request(url, headers={"Accept": accept} if accept else {})
    with urllib.request.urlopen(request, timeout=2) as r:
        return r.headers["Content-Type"], r.read().decode()
for _ in range(100):
    try:
        kind, body = get()
        if "dtrace_l_bucket" in body:
            break
    except OSError:
        pass
    time.sleep(0.05)
# Buffer switches come each switchrate tick: their count varies, but grows.
switches = re.compile(r"^dtrace_buffer_switches_total (\d+)$", re.M)
print(kind)
print(switches.sub("dtrace_buffer_switches_total N", body), end="")
first = int(switches.search(body).group(1))
time.sleep(0.3)
later = int(switches.search(get()[1]).group(1))
print("buffer switches grow:", later > first)
kind, body = get("application/openmetrics-text; version=1.0.0")
print(kind)
print("\n".join(line for line in body.splitlines() if "dtrace_c" in line or line == "# EOF"))
PY
wait "$pid"
cat "$work/err"
