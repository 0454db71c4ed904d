# An exhausted locked-memory limit (RLIMIT_MEMLOCK 0) does not stop
# dtrace: the kernel charges BPF memory to the memory cgroup, not to this
# limit (Linux 5.11 and later), and dtrace raises it anyway where it may.
# Without CAP_SYS_RESOURCE it cannot raise it, and still works.
prog='BEGIN { a["x"] = 1; @["y"] = sum(2); printf("traced %d\n", a["x"]); exit(0); }'
(ulimit -l 0 && $DTRACE -qn "$prog")
echo "status $?"
(ulimit -l 0 && setpriv --bounding-set=-sys_resource $DTRACE -qn "$prog")
echo "status $?"
