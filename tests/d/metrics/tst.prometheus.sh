# A real Prometheus (Debian's) scrapes dtrace's -x metrics endpoint every
# second, and PromQL through its HTTP API returns what the script counted:
# a counter by execname (its label named comm), its rate, a quantile of a
# quantize() and its mean (_sum / _count).
work=$(mktemp -d)
prom=
dtrace_pid=
cleanup() {
  [ -n "$prom" ] && kill "$prom" 2>/dev/null
  [ -n "$dtrace_pid" ] && kill "$dtrace_pid" 2>/dev/null
  wait 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
# The workload under a name of its own: other tests' getppid may run meanwhile.
cp "$WORKLOADS/getppid" "$work/metrics-getppid"
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# GET a URL; the body on stdout, nothing (and status 1) if it fails.
get() {
  python3 - "$1" <<'PY'
import sys, urllib.request
try:
    print(urllib.request.urlopen(sys.argv[1], timeout=2).read().decode())
except Exception:
    sys.exit(1)
PY
}
# The value of a PromQL query's first sample, or nothing.
query() {
  python3 - "http://127.0.0.1:$prom_port/api/v1/query" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
url = sys.argv[1] + "?" + urllib.parse.urlencode({"query": sys.argv[2]})
try:
    result = json.load(urllib.request.urlopen(url, timeout=2))["data"]["result"]
    print(result[0]["value"][1] if result else "")
except Exception:
    pass
PY
}
# Waits up to 20 s (80 tries) for `query "$1"` to print `$2`.
await() {
  for _ in $(seq 80); do
    [ "$(query "$1")" = "$2" ] && return 0
    sleep 0.25
  done
  echo "timed out waiting for $1 = $2 (last: $(query "$1"))" >&2
  return 1
}

dtrace_port=$(free_port)
prom_port=$(free_port)
cat >"$work/prometheus.yml" <<YML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: dtrace
    static_configs:
      - targets: ['127.0.0.1:$dtrace_port']
YML

$DTRACE -q -x metrics="127.0.0.1:$dtrace_port" -x metricslabels=syscalls:comm -x aggrate=100ms -n '
  syscall::getppid:entry /execname == "metrics-getppid"/ { @syscalls[execname] = count(); @lat = quantize(700); }
  tick-1s /++seconds == 30/ { exit(0); }' >"$work/dtrace.out" 2>"$work/dtrace.err" &
dtrace_pid=$!
for _ in $(seq 100); do
  get "http://127.0.0.1:$dtrace_port/metrics" >/dev/null && break
  sleep 0.1
done
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/data" \
  --web.listen-address="127.0.0.1:$prom_port" --log.level=error >"$work/prom.log" 2>&1 &
prom=$!
await 'up{job="dtrace"}' 1 || { cat "$work/prom.log" >&2; exit 1; }

# 100 calls over 5 s: several scrapes see the counter grow.
"$work/metrics-getppid" 100 50
await 'sum by (comm) (dtrace_syscalls_total{comm="metrics-getppid"})' 100 || { cat "$work/prom.log" >&2; exit 1; }
echo "counted getppid calls: $(query 'sum by (comm) (dtrace_syscalls_total{comm="metrics-getppid"})')"
echo "rate over 10s is positive: $(query 'sum by (comm) (rate(dtrace_syscalls_total[10s])) > bool 0')"
p99=$(query 'histogram_quantile(0.99, sum by (le) (dtrace_lat_bucket))')
echo "p99 of quantize(700) within its bucket [512, 1023]: $(echo "$p99" |
  awk '{ print ($1 >= 512 && $1 <= 1023) ? "yes" : "no (" $1 ")" }')"
echo "histogram count: $(query 'sum(dtrace_lat_count)')"
echo "mean from _sum / _count: $(query 'sum(dtrace_lat_sum) / sum(dtrace_lat_count)')"
echo "errors: $(query 'sum(dtrace_errors_total)')"
kill "$dtrace_pid"
wait "$dtrace_pid"
dtrace_pid=
