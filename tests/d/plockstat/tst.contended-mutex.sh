# plockstat on glibc: four threads contend for one pthread mutex (each
# holds it across a sleep) and one rwlock. Every acquisition and release
# of them fires with the lock's address (recorded at the function's
# entry), rwlock probes say whether a writer; threads that had to wait
# block in glibc's futex wait and come back with the mutex (mutex-blocked
# arg1 = 1) as often as they blocked.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
$DTRACE -q -o "$work/trace" -c "$WORKLOADS/contended_mutex" -n '
plockstat$target:::mutex-acquire, plockstat$target:::mutex-release,
plockstat$target:::mutex-block, plockstat$target:::mutex-blocked,
plockstat$target:::rw-acquire, plockstat$target:::rw-release
{
  @[arg0, probename, probename == "mutex-block" ? 0 : arg1] = count();
}
END { printa("%x %s %d %@d\n", @); }' >"$work/locks" || exit 1
awk 'NR == FNR { name[$2] = $1; next }
     !($1 in name) { next }
     $2 == "mutex-block" || $2 == "mutex-blocked" { blocked[$2] = $4; next }
     { print name[$1], $2, $3, $4 }
     END {
       print "blocked", (blocked["mutex-block"] > 0 ? "some" : "none"),
             (blocked["mutex-block"] == blocked["mutex-blocked"] ? "all came back" : "mismatch")
     }' "$work/locks" "$work/trace" | sort
