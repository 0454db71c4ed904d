# umod() keys merge every address of an object into one key: two program
# counters in libc print as one libc.so.6 key, and trunc() removes every
# map entry that merged into it, so nothing is left to print after it.
$DTRACE -q -c "$WORKLOADS/getppid 10" -n '
  syscall::getppid:entry /pid == $target/ {
    @[umod(uregs[R_PC] + (self->n++ % 2) * 4)] = count();
  }
  END { printa(@); trunc(@); printa(@); printf("after trunc\n"); }'
