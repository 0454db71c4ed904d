# Strings live in per-CPU scratch space, which BPF caps at 32 KiB: a strsize
# too large for it is refused before anything is attached.
$DTRACE -x strsize=4096 -qn 'BEGIN { trace(index("abc", "b")); exit(0); }'
