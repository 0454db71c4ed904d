# Helpers the bench scripts share (sourced, not run).

# The median of the numbers on standard input, one per line.
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# The wall seconds a command takes, its output and failure ignored.
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

# The workload's own figure: the last line of its output that is a number.
last() { grep -E '^[0-9.]+$' | tail -1; }

# Runs a command $runs times: the median of the figures its workload prints.
median_of_runs() {
  for _ in $(seq "$runs"); do "$@" 2>/dev/null | last; done | median
}

# Runs each named configuration (a shell function whose workload prints
# its ns/call) once per round, $runs rounds, the configurations in turn so
# that a slow patch of the machine hits them all alike; then sets
# median[NAME] to each one's median. Needs `declare -A median` first.
interleaved_medians() {
  local -A figures=()
  local name
  for _ in $(seq "$runs"); do
    for name in "$@"; do figures[$name]+="$("$name" 2>/dev/null | last) "; done
  done
  for name in "$@"; do median[$name]=$(printf '%s\n' ${figures[$name]} | median); done
}

# "A / B" of the added costs (over the untraced figure `base`), 2 decimals.
ratio() { echo "scale=2; ($1 - $3) / ($2 - $3)" | bc -l; }

# Compiles the getppid loop and the raw-tracepoint floor into $tmp (removed
# at exit) and sets $pinned: `taskset -c $PIN` (default CPU 1) to run the
# loop on one CPU, or nothing with PIN= . Needs $here.
build_loops() {
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  cc -O2 -o "$tmp/loop" "$here/getppid_loop.c"
  cc -O2 -o "$tmp/floor" "$here/raw_tp_floor.c"
  local pin=${PIN-1}
  pinned=""
  if [ -n "$pin" ]; then pinned="$(command -v taskset) -c $pin "; fi
}

# A row of a bench's table: a label, a configuration's ns/call, and what it
# adds over the untraced figure $b.
show() { printf '%-46s %7.1f ns/call  (+%.1f)\n' "$1" "$2" "$(echo "$2 - $b" | bc)"; }

# The median wall time in ms of a command over $runs runs: hyperfine's
# (no shell between it and the command; $WARMUP warm-up runs, default 2)
# when it is installed, else the shell's clock around each run, which adds
# a few ms of its own.
median_wall_ms() {
  if command -v hyperfine >/dev/null; then
    local json
    json=$(mktemp)
    hyperfine -N -w "${WARMUP:-2}" -r "$runs" --export-json "$json" "$(printf '%q ' "$@")" >/dev/null 2>&1
    python3 -c 'import json,sys; print("%.1f" % (json.load(open(sys.argv[1]))["results"][0]["median"] * 1000))' "$json"
    rm -f "$json"
    return
  fi
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    echo "$(((t1 - t0) / 1000))"
  done | sort -n | awk '{a[NR]=$1} END {printf "%.1f\n", a[int((NR+1)/2)] / 1000}'
}
