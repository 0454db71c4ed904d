# The listing comes at compile time, as libdtrace lists DIF while it
# compiles (DTRACE_C_DIFV): -e -S lists the programs without loading them.
# -x verbose and `#pragma D option verbose` are -S. Each clause is listed
# under the description that matched the probe.
headings() { grep -E '^Disassembly of clause'; }
$DTRACE -e -S -n 'BEGIN, END { x = 1; } tick-1s, syscall::getppid:entry { y = 2; }' 2>&1 | headings
$DTRACE -e -x verbose -n 'BEGIN { exit(0); }' 2>&1 | headings
f=$(mktemp --suffix=.d)
trap 'rm -f "$f"' EXIT
printf '#pragma D option verbose\ndtrace:::END { exit(0); }\n' > "$f"
$DTRACE -e -s "$f" 2>&1 | headings
