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
