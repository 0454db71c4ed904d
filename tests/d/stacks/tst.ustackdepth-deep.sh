# run alone: it raises kernel.perf_event_max_stack for its run.
# ustackdepth counts as many frames as the kernel unwinds, and so as many
# as ustack() prints: with perf_event_max_stack raised to 300, a getppid(2)
# made 150 calls below main() is at least 150 frames deep, more than the
# 127 the kernel unwinds by default.
# The kernel refuses the setting (EBUSY) while stacks are being taken, as
# for a moment after a BPF program that takes them is unloaded: retry.
set_max_stack() {
  for _ in $(seq 50); do
    sysctl -qw kernel.perf_event_max_stack="$1" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "cannot set kernel.perf_event_max_stack to $1" >&2
  return 1
}
saved=$(sysctl -n kernel.perf_event_max_stack)
trap 'set_max_stack "$saved"' EXIT
set_max_stack 300 || exit 1
$DTRACE -q -c "$WORKLOADS/deep_stack 150" -n '
  syscall::getppid:entry /pid == $target/ {
    printf("depth %d\n", ustackdepth); ustack(300); printf("end\n"); }' |
  awk '/^depth/ { depth = $2; next }
       /^end/ { print (depth >= 150 ? "deep" : "shallow: " depth), (depth == frames ? "as printed" : "printed " frames) }
       NF { frames++ }'
