# Strings live in per-CPU scratch space, which BPF caps at 32 KiB: a strsize
# too large for the string subroutines a program nests is refused before
# anything is attached.
$DTRACE -x strsize=4096 -qn 'BEGIN { trace(index(strstr("abc", "b"), "b")); exit(0); }'
