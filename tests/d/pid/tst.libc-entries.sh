# Thousands of libc entry probes at once (one program, one multi-uprobe
# link): the calls the program makes once started, counted by function.
$DTRACE -q -c "$WORKLOADS/pidfuncs 1" -n '
  pid$target:libc.so.6::entry { @[probefunc] = count(); }
  END { printa("%s %@d\n", @); }' |
  grep -E "^(exit|printf) " | sort
