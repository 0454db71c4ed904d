# The USDT probes Debian's python3 ships: `line` with the function's name
# (arg1) as a string, for the one line of a Python function called 100
# times (python 3.11's function-entry fires only for frames entered from
# C at start-up, for every tracer); its probes listed by name.
python=/usr/bin/python3.11
[ -x "$python" ] || python=$(command -v python3)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/calls.py" <<'PY'
def traced_function(i):
    return i * 2
list(map(traced_function, range(100)))
PY
$DTRACE -q -c "$python $work/calls.py" -n '
  python$target:::line /copyinstr(arg1) == "traced_function"/ { @[copyinstr(arg1), probename] = count(); }
  END { printa("%s %s %@d\n", @); }'
$DTRACE -l -n 'python$target:::' -c "$python -c pass" | awk 'NR > 1 { print $NF }' | sort
