# A flame graph's folded stacks of Debian's python3 (built without frame
# pointers) running a recursive function: with CFI, most samples hold the
# interpreter's whole chain, from _start through Py_RunMain to
# _PyEval_EvalFrameDefault; frame pointers alone (-x unwind=fp) give none.
# The same from python's USDT probe `line`, fired in the interpreter loop
# (in a part of _PyEval_EvalFrameDefault the stripped binary does not name).
python=/usr/bin/python3.11
[ -x "$python" ] || python=$(command -v python3)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/fib.py" <<'PY'
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
for _ in range(4):
    fib(25)
PY
for unwind in cfi fp; do
  $DTRACE -q -x unwind=$unwind -x oformat=folded -c "$python $work/fib.py" \
    -n 'profile-997 /pid == $target/ { @[ustack(100)] = count(); }' |
    awk -v unwind=$unwind '
      { total += $NF }
      /_start;/ && /Py_RunMain;/ && /_PyEval_EvalFrameDefault/ { whole += $NF }
      END { print unwind ": " (whole == 0 ? "no" : whole * 2 > total ? "most" : "some") " samples whole" }'
done
$DTRACE -q -x oformat=folded -c "$python $work/fib.py" \
  -n 'python$target:::line /copyinstr(arg1) == "fib"/ { @[ustack(100)] = count(); }' |
  awk '{ total += $NF }
       /_start;/ && /Py_RunMain;/ { whole += $NF }
       END { print "line probe: " (whole == total && total > 0 ? "every" : whole + 0) " stack whole" }'
