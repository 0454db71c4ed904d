# Without -q, every record starts with CPU, probe ID and FUNCTION:NAME
# (the CPU column is masked: it depends on where the probe fired).
$DTRACE -n 'BEGIN { trace(42); trace("hi"); } BEGIN { } BEGIN { exit(0); }' 2>&1 |
  sed -E 's/^ +[0-9]+ ( +[0-9]+ )/  C\1/'
