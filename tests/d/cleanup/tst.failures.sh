# dtrace that fails part of the way leaves nothing behind either: a
# compile error, a program the kernel refuses to load after others were
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
  head -1 "$err" | sed -E -e 's/(failed to enable )[^ ]+: (.*raw tracepoint )[a-z0-9_]+:/\1PROBE: \2TP:/' \
    -e 's/program of [0-9]+ instructions/program of N instructions/'
}

mark_objects
$DTRACE -q -n 'syscall::getppid:entry { @ = count(; }' -c "$command" 2>"$err"
report "compile error" $?

# 16000 aggregating statements in one clause make a program larger than
# the kernel loads (a million instructions): it refuses the last clause's
# program, after the first three probes' programs were loaded and attached.
{
  echo 'syscall::getpid:entry { @a = count(); } profile-97 { @b = count(); }'
  echo 'sched:::on-cpu { @c = count(); } syscall::getppid:entry {'
  for i in $(seq 0 15999); do echo "@v[$i] = count();"; done
  echo '}'
} >"$script"
mark_objects
$DTRACE -q -s "$script" -c "$command" 2>"$err"
report "kernel refusal" $?

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
