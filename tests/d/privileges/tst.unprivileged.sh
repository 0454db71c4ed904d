# Without the privileges tracing needs (root's capabilities, or CAP_BPF and
# CAP_PERFMON), dtrace refuses in one line and exits 2 (the project's status for
# an environment that cannot trace): as nobody, and as root with every capability
# dropped, to trace, list probes (-l) or start a command (-c, which is not
# started). -e only compiles, and needs no privileges. CAP_BPF and
# CAP_PERFMON alone are enough for BEGIN.
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all"
no_caps="setpriv --inh-caps=-all --bounding-set=-all"
marker=$(mktemp -u)
trap 'rm -f "$marker"' EXIT
for who in nobody no_caps; do
  run=${!who}
  $run $DTRACE -n 'BEGIN { exit(0); }' 2>&1
  echo "$who, -n: status ${PIPESTATUS[0]}"
  $run $DTRACE -l 2>&1 | head -3
  echo "$who, -l: status ${PIPESTATUS[0]}"
  $run $DTRACE -n 'syscall::getppid:entry { @ = count(); }' -c "touch $marker" 2>&1
  echo "$who, -c: status ${PIPESTATUS[0]}, command started $([ -e "$marker" ] && echo yes || echo no)"
  $run $DTRACE -qen 'BEGIN { @ = count(); }' 2>&1
  echo "$who, -e: status ${PIPESTATUS[0]}"
done
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=+bpf,+perfmon \
  --ambient-caps=+bpf,+perfmon $DTRACE -qn 'BEGIN { printf("uid %d\n", uid); exit(0); }' 2>&1
echo "nobody with CAP_BPF and CAP_PERFMON: status ${PIPESTATUS[0]}"
