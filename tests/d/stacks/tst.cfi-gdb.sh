# ustack() through code built -O2 without frame pointers, over Debian's
# libc: from the bottom of a recursion of known depth, through a shared
# library, and from a signal handler (through the signal trampoline). The
# frames equal those gdb's bt shows at the same point (its physical
# frames: gdb adds inlined functions, and tail calls it reconstructs, from
# debug information), compared by function and offset (libc's by offset:
# gdb names some functions by an alias). Frame pointers alone
# (-x unwind=fp) lose the frames past libc's getppid.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags="-O2 -fomit-frame-pointer -fno-optimize-sibling-calls -fno-inline"
gcc $flags -fPIC -shared -o "$work/libchain.so" cfi-chain.c &&
  gcc $flags -o "$work/nofp" cfi-nofp.c -L"$work" -lchain -Wl,-rpath,'$ORIGIN' || exit 1

# One frame per line as MODULE FUNCTION OFFSET, libc's function left out.
normalize() {
  awk '{
    module = $1; fn = $2; offset = $3
    if (module ~ /^libc\.so/) fn = "-"
    printf "%s %s %s\n", module, fn, offset
  }'
}

dtrace_frames() {
  $DTRACE -q -x ustackframes=40 $2 -c "$work/nofp $1" \
    -n 'syscall::getppid:entry /pid == $target/ { ustack(); }' |
    awk 'NF {
      frame = $1; module = frame; sub(/`.*/, "", module); sub(/^[^`]*`/, "", frame)
      offset = "0x0"; at = index(frame, "+")
      if (at) { offset = substr(frame, at + 1); frame = substr(frame, 1, at - 1) }
      print module, frame, offset
    }' | normalize
}

gdb_frames() {
  cat >"$work/frames.py" <<'PY'
import gdb, os
frame = gdb.newest_frame()
while frame is not None:
    if frame.type() in (gdb.NORMAL_FRAME, gdb.SIGTRAMP_FRAME):
        where = gdb.execute("info symbol %#x" % frame.pc(), to_string=True).split(" in section ")
        name, offset = (where[0].split(" + ") + ["0"])[:2]
        path = where[1].split(" of ")[1].strip() if " of " in where[1] else "nofp"
        print(os.path.basename(path), name.strip(), hex(int(offset)))
    frame = frame.older()
PY
  gdb -q -batch -ex 'set backtrace past-main on' -ex 'handle SIGUSR1 nostop noprint pass' \
    -ex 'catch syscall getppid' -ex "run $1" -ex "source $work/frames.py" "$work/nofp" 2>/dev/null |
    awk 'NF == 3 && $3 ~ /^0x/' | normalize
}

for case in recursion library signal; do
  dtrace_frames $case >"$work/dtrace.$case"
  gdb_frames $case >"$work/gdb.$case"
  echo "== $case: $(wc -l <"$work/dtrace.$case") frames"
  awk '{ print $1, $2 }' "$work/dtrace.$case"
  if cmp -s "$work/dtrace.$case" "$work/gdb.$case"; then
    echo "same as gdb"
  else
    diff "$work/dtrace.$case" "$work/gdb.$case"
  fi
done
# Past getppid, a frame-pointer walk reads whatever rbp holds: a frame
# or two at most, not the recursion.
fp=$(dtrace_frames recursion '-x unwind=fp' | wc -l)
echo "== recursion, frame pointers alone: $([ "$fp" -le 3 ] && echo "3 frames or fewer" || echo "$fp frames")"
