# ustack() at an entry probe includes the caller: the function has not
# pushed its frame pointer yet, so its return address is read from the
# stack pointer (Linux's unwinder alone would skip from printf to main's
# caller). Offsets within functions depend on the compiler: left out.
$DTRACE -q -c "$WORKLOADS/pidfuncs 1" -n '
  pid$target:libc.so.6:printf:entry { ustack(3); }' | grep -v '^sum' | sed -E 's/\+0x[0-9a-f]+$//'
