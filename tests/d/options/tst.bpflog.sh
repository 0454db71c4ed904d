# -x bpflog (Oracle's option): each program's verifier log on stderr, each
# line marked "BPF: ", ending with the verifier's statistics.
$DTRACE -x bpflog -qn 'BEGIN { exit(0); }' 2>&1 >/dev/null |
  grep -E -o '^BPF: processed [0-9]+ insns' | sed -E 's/[0-9]+/N/' | sort -u
$DTRACE -x bpflog -qn 'BEGIN { exit(0); }' 2>&1 >/dev/null | grep -v -c '^BPF: ' 
$DTRACE -qn 'BEGIN { exit(0); }' 2>&1 | grep -c '^BPF: '
true
