# -S prints each probe's eBPF program, laid out as Oracle's Linux DTrace
# lists BPF code (a heading per clause, then "INS OFFSET: fields" lines),
# and the verifier's log, to stderr.
$DTRACE -S -qn 'BEGIN { exit(0); }' 2>&1 >/dev/null |
  grep -E -o '^Disassembly of (program|clause) [^,]*|call bpf_ringbuf_output|processed [0-9]+ insns' |
  sed -E 's/[0-9]+ insns/N insns/' | sort -u
$DTRACE -S -qn 'BEGIN { exit(0); }' 2>&1 >/dev/null |
  awk '/^[0-9]{4} [0-9]{5}: [0-9a-f]{2} [0-9a-f] [0-9a-f] [0-9a-f]{4} [0-9a-f]{8}/ { n++ }
       END { print (n > 20 ? "instructions listed" : "too few instructions: " n) }'
