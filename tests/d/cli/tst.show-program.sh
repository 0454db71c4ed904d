# -S prints each probe's eBPF program, and the verifier's log, to stderr.
$DTRACE -S -qn 'BEGIN { exit(0); }' 2>&1 >/dev/null |
  grep -E -o 'dtrace:::BEGIN \(probe ID 1\)|call bpf_ringbuf_output|processed [0-9]+ insns' |
  sed -E 's/[0-9]+ insns/N insns/' | sort -u
