# Code a JIT compiled, in no file, is named from the /tmp/perf-PID.map the
# runtime writes (node --perf-basic-prof; re-read as it grows): a profile
# of a hot JavaScript function names it.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/hot.js" <<'JS'
function hotLoop(n) { let s = 0; for (let i = 0; i < n; i++) s += Math.sqrt(i); return s; }
const start = Date.now(); let total = 0;
while (Date.now() - start < 1500) total += hotLoop(1e5);
JS
node=$(command -v node || command -v nodejs)
cd "$work"  # node leaves isolate-*-v8.log files where it runs
$DTRACE -q -c "$node --perf-basic-prof $work/hot.js" -n '
  profile-997 /pid == $target/ { @[ufunc(uregs[R_PC])] = count(); }' >"$work/out"
pid_map_named=$(grep -c 'JS:\*hotLoop .*hot.js' "$work/out")
echo "samples in hotLoop named by the perf map: $([ "$pid_map_named" -ge 1 ] && echo yes || echo no)"
grep -l "$work/hot.js" /tmp/perf-*.map 2>/dev/null | xargs -r rm -f
