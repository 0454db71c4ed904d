# Prototype checks of the actions, with illumos' tags and messages.
for act in 'raise("x")' 'raise()' 'chill()' 'chill(1, 2)' 'stop(1)' 'ftruncate(2)' \
    'system()' 'system(1)' 'system("%d")' 'freopen(".")' 'freopen("", 1)' \
    'tracemem(arg0)' 'tracemem("x", 8)' 'tracemem(arg0, "x")' 'tracemem(arg0, arg1)' \
    'tracemem(arg0, 0)' 'tracemem(arg0, -1)' 'tracemem(arg0, 0xffffffffffffffff)' \
    'tracemem(arg0, 8, 1, 2)' \
    'tracemem(arg0, 8, "x")'; do
  $DTRACE -x errtags -e -n "BEGIN { $act; }"
done
