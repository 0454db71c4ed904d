# -F indents the FUNCTION column by the calls traced, as dtrace(1M) does:
# "->"/"<-" for entry and return probes ("=>"/"<=" for system calls), two
# columns deeper per call. twice:return has two clauses: the first prints
# "| twice:return" at the same depth, only the last steps back out. The
# workload's buffered printf() writes after main() returns. All on one CPU,
# as records print CPU by CPU.
taskset -c 0 $DTRACE -F -c "$WORKLOADS/pidfuncs 1" -n '
  pid$target:a.out:main:entry, pid$target:a.out:add8:entry, pid$target:a.out:twice:entry,
  pid$target:a.out:main:return, pid$target:a.out:add8:return, pid$target:a.out:twice:return {}
  pid$target:a.out:twice:return { trace(arg1); }
  syscall::write:entry, syscall::write:return /pid == $target/ {}' 2>/dev/null |
  grep -v '^sum ' | sed -E 's/^ *[0-9]+ //'
echo "quiet, the same column without a newline after each record:"
taskset -c 0 $DTRACE -qF -c "$WORKLOADS/pidfuncs 1" -n '
  pid$target:a.out:add8:entry, pid$target:a.out:add8:return { printf("[%s]\n", probename); }' |
  grep -v '^sum ' | sed -E 's/^ *[0-9]+ //'
