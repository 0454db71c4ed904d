# aggsize is what each CPU may add to its aggregations in one aggregation
# interval (aggrate), as DTrace's per-CPU aggregation buffer holds that many
# bytes of records between two snapshots. A 256-byte string key and a count
# take 264 bytes: three new keys fit 1 KiB. In BEGIN, one interval on one
# CPU, the fourth to sixth are drops; made two at a time on every second
# tick with a 10 ms aggrate, all six fit.
taskset -c 0 $DTRACE -q -x aggsize=1k -x strsize=256 -n '
BEGIN {
  @["a"] = count(); @["b"] = count(); @["c"] = count();
  @["d"] = count(); @["e"] = count(); @["f"] = count();
  exit(0);
}' 2>&1 | sort
echo "across intervals:"
$DTRACE -q -x aggsize=1k -x strsize=256 -x aggrate=10ms -n '
BEGIN { i = 0; }
tick-50ms /i < 3/ { @[i == 0 ? "a" : i == 1 ? "c" : "e"] = count();
                    @[i == 0 ? "b" : i == 1 ? "d" : "f"] = count(); i++; }
tick-50ms /i == 3/ { exit(0); }' 2>&1 | sort
