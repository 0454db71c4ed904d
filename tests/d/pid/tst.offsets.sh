# Offset probes: add8's instruction at offset 1 (after its one-byte push),
# every instruction of add8 (entry, return and each offset from one glob),
# and the libc module named as "libc" matching libc.so.6.
$DTRACE -q -c "$WORKLOADS/pidfuncs 1" -n '
  pid$target:a.out:add8:1 { printf("offset %s %d\n", probename, arg1); }
  pid$target:a.out:add8:* /probename == "entry" || probename == "return"/ { printf("%s\n", probename); }
  pid$target:a.out:add8:* /probename != "entry" && probename != "return"/ { offsets++; }
  pid$target:libc:exit:entry { printf("exit(%d) in %s\n", arg0, probemod); }
  END { printf("several offsets: %d\n", offsets > 5); }' | sort
