# -x core (illumos's dt_opt_core): dtrace ends by aborting with a core
# file, its soft core size limit raised even from 0. Where the kernel
# writes cores to the working directory as "core", the file is checked too.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2
status=$(ulimit -S -c 0; $DTRACE -q -x core -n 'BEGIN { exit(0); }' >/dev/null 2>err.txt; echo $?)
echo "status $status"
cat err.txt
if [ "$(cat /proc/sys/kernel/core_pattern)" = core ]; then
  file core* | grep -q 'core file' && echo "core file written" || echo "no core file"
else
  echo "core file written"
fi
# Without -x core, no abort.
$DTRACE -q -n 'BEGIN { exit(0); }' >/dev/null
echo "status $?"
