# -x maxframes (Oracle's option) bounds what stackdepth and ustackdepth
# count, as it bounds the frames stack() and ustack() record; ustack()
# records ustackframes (illumos's default, 20) frames unless told.
$DTRACE -q -x maxframes=5 -c "$WORKLOADS/deep_stack 30" -n '
  syscall::getppid:entry /pid == $target/ { printf("depth %d\n", ustackdepth); }'
$DTRACE -q -c "$WORKLOADS/deep_stack 30" -n '
  syscall::getppid:entry /pid == $target/ { printf("depth > 30: %d\n", ustackdepth > 30);
    ustack(); printf("end\n"); }' |
  awk '/^depth/ { print; next } /^end/ { print "ustack() frames:", frames } NF { frames++ }'
