# dtrace that fails part of the way leaves nothing behind either: a
# compile error, a program the kernel's verifier refuses after others were
# loaded and attached, an attach that fails half-way through (out of file
# descriptors after ~100 tracepoints) and a SIGKILL while probes are being
# enabled (the -c command held, stopped, at its entry point meanwhile).
# None leaves a BPF object, a perf event or a -c command behind.
. ./objects.sh
err=$(mktemp) script=$(mktemp --suffix=.d)
trap 'rm -f "$err" "$script"' EXIT
command="$WORKLOADS/getppid 100000 10"

report() {
  echo "$1: status $2; left $(describe_left); processes left $(count_processes)"
  head -1 "$err" | sed -E 's/(failed to enable )[^ ]+: (.*raw tracepoint )[a-z0-9_]+:/\1PROBE: \2TP:/'
}

mark_objects
$DTRACE -q -n 'syscall::getppid:entry { @ = count(; }' -c "$command" 2>"$err"
report "compile error" $?

# 450 thread-local stores make a program longer than the kernel's 16-bit
# jumps reach once the verifier has inlined its helpers: it refuses the
# last clause's program, after the first three probes' programs were
# loaded and attached.
{
  echo 'syscall::getpid:entry { @a = count(); } profile-97 { @b = count(); }'
  echo 'sched:::on-cpu { @c = count(); } syscall::getppid:entry {'
  for i in $(seq 0 449); do echo "self->v$i = $i;"; done
  echo '}'
} >"$script"
mark_objects
$DTRACE -q -s "$script" -c "$command" 2>"$err"
report "verifier rejection" $?

mark_objects
(ulimit -n 100 && exec $DTRACE -q -n 'syscall::getpid:entry, profile-97, sdt::: { }' \
  -c "$command" 2>"$err")
report "attach failure" $?

mark_objects
$DTRACE -q -n 'pid$target::main:entry, sdt::: { }' -c "$command" 2>"$err" &
dtrace=$!
sleep 0.5
kill -KILL $dtrace
wait $dtrace 2>/dev/null
report "SIGKILL while enabling" $?
