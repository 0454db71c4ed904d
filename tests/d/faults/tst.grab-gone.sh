# -p on a process that does not exist, or that has exited and not been
# waited for (a zombie): libproc's words, one line, status 1.
true &
gone=$!
wait $gone
$DTRACE -p $gone -n 'BEGIN { exit(0); }' 2>&1 | sed "s/pid $gone:/pid GONE:/"
echo "status ${PIPESTATUS[0]}"

# A child that exits while its parent (sleep, which never waits) lives on:
# it outlives the exec that makes its parent a sleep, so no shell reaps it.
zfile=$(mktemp)
trap 'rm -f "$zfile"' EXIT
(sleep 0.5 & echo $! >"$zfile"; exec sleep 60) &
parent=$!
for i in $(seq 500); do
  zombie=$(cat "$zfile")
  [ -n "$zombie" ] && [ "$(awk '{ print $3 }' /proc/$zombie/stat 2>/dev/null)" = Z ] && break
  sleep 0.02
done
$DTRACE -p $zombie -n 'BEGIN { exit(0); }' 2>&1 | sed "s/pid $zombie:/pid ZOMBIE:/"
echo "status ${PIPESTATUS[0]}"
kill $parent
