# Bad pointers on a busy probe: every one is an error message naming the
# fault, tracing carries on, and the aggregations print at the end.
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
$DTRACE -q -n '
  syscall::getppid:entry /pid == $target/ { @calls = count(); n++; }
  syscall::getppid:entry /pid == $target && n == 1/ { trace(*(int *)0); }
  syscall::getppid:entry /pid == $target && n == 2/ { trace(copyinstr(1)); }
  syscall::getppid:entry /pid == $target && n == 3/ { trace(stringof((char *)0xffffffffff600000)); }
  syscall::getppid:entry /pid == $target && n == 4/ { trace(*(uint64_t *)copyin(0, 8)); }
  syscall::getppid:entry /pid == $target && n == 5/ { trace(curthread->real_parent->real_parent->comm[0] + *(int *)8); }
  syscall::getppid:entry /pid == $target/ { @after = count(); }
  END { printa("calls %@d, completed clauses after the faulting ones %@d\n", @calls, @after); }' \
  -c "$WORKLOADS/getppid 10" >"$out" 2>"$err"
echo "status $?"
cat "$out"
sed -E 's/DIF offset [0-9]+/DIF offset N/; s/\(ID [0-9]+:/(ID P:/' "$err"
