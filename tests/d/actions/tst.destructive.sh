# raise, stop, chill, system and freopen are destructive: refused without
# -w; ftruncate and tracemem are not. -e (compile only) never refuses.
for act in 'raise(9)' 'stop()' 'chill(1)' 'system("true")' 'freopen("")' 'ftruncate()' \
    'tracemem(curthread, 1)'; do
  prog="BEGIN /0/ { $act; } BEGIN { exit(0); }"
  $DTRACE -qn "$prog" >/dev/null 2>&1
  plain=$?
  $DTRACE -wqn "$prog" >/dev/null 2>&1
  allowed=$?
  $DTRACE -qen "$prog" >/dev/null 2>&1
  echo "$act: without -w $plain, with -w $allowed, with -e $?"
done
