# Without root (or CAP_BPF and CAP_PERFMON) dtrace says so in one line, exit 2
# (tests/d/privileges has more cases).
setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all $DTRACE -n 'BEGIN { exit(0); }'
