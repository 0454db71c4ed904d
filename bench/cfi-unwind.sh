#!/usr/bin/env bash
# ustack(100) by call frame information against frame pointers and bpftrace,
# in one run: the added ns per getppid(2) of `@[ustack()] = count()` from
# the bottom of a recursion 2 and 42 frames deep, in a program built -O2
# without frame pointers (bench/deep_getppid.c), so the difference between
# the depths over 40 is the cost per frame. Medians of $RUNS interleaved
# rounds. Then the start-up that compiling the tables adds, for /bin/true
# (libc, ld.so) and Debian's python3.11 and its libraries (hyperfine when
# installed), and a profile at 997 Hz of a busy no-frame-pointer program:
# its samples and drops.
#   bench/cfi-unwind.sh [path/to/dtrace]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
DTRACE=${1:-$here/../build/dtrace}
runs=${RUNS:-7}
calls=${CALLS:-200000}
. "$here/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -fomit-frame-pointer -fno-optimize-sibling-calls -o "$tmp/deep" "$here/deep_getppid.c"

probe='syscall::getppid:entry /pid == $target/ { @[ustack(100)] = count(); }'
bprobe='tracepoint:syscalls:sys_enter_getppid /pid == cpid/ { @[ustack] = count(); }'
for depth in 0 40; do
  eval "base_$depth() { taskset -c 1 $tmp/deep $calls $depth; }"
  eval "cfi_$depth() { $DTRACE -q -n '$probe' -c '$(command -v taskset) -c 1 $tmp/deep $calls $depth'; }"
  eval "fp_$depth() { $DTRACE -q -x unwind=fp -n '$probe' -c '$(command -v taskset) -c 1 $tmp/deep $calls $depth'; }"
  if command -v bpftrace >/dev/null; then
    eval "bt_$depth() { bpftrace -e '$bprobe' -c '$(command -v taskset) -c 1 $tmp/deep $calls $depth'; }"
  else
    eval "bt_$depth() { echo 0; }"
  fi
done
declare -A median
interleaved_medians base_0 base_40 cfi_0 cfi_40 fp_0 fp_40 bt_0 bt_40
echo "added ns per getppid with @[ustack(100)] = count() (median of $runs rounds)"
printf '%-24s %12s %12s %14s\n' "" "3 frames" "43 frames" "per frame"
for c in cfi fp bt; do
  a0=$(echo "${median[${c}_0]} - ${median[base_0]}" | bc)
  a40=$(echo "${median[${c}_40]} - ${median[base_40]}" | bc)
  printf '%-24s %12s %12s %14s\n' "$c" "$a0" "$a40" "$(echo "scale=1; ($a40 - $a0) / 40" | bc)"
done
echo "(fp and bpftrace walk frame pointers: they stop at the first frame without one)"

# Start-up with the tables of a target's objects compiled (CFI) against
# none (fp): /bin/true maps libc and ld.so; python3.11 adds its own
# 64,572 rows and its libraries'.
stack='syscall::getppid:entry /pid == $target/ { @[ustack()] = count(); }'
if command -v hyperfine >/dev/null; then
  for target in /bin/true "/usr/bin/python3.11 -c pass"; do
    echo
    echo "start-up tracing $target: unwind=fp, then unwind=cfi (hyperfine, mean of $runs)"
    hyperfine -N -w 2 -r "$runs" --style basic \
      "$DTRACE -q -x unwind=fp -n '$stack' -c '$target'" \
      "$DTRACE -q -n '$stack' -c '$target'" 2>&1 | grep -E "Time \(mean" || true
  done
fi

echo
echo "profile-997 of a busy no-frame-pointer program for 5 s:"
$DTRACE -q -n 'profile-997 /pid == $target/ { @s = count(); @[ustack()] = count(); }
  tick-5s { exit(0); } END { printa("samples %@d\n", @s); trunc(@); }' \
  -c "$tmp/deep 100000000 20" 2>&1 | grep -E "samples|drop" || true
