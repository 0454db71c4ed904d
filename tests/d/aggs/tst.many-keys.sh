# 30,000 keys, each counted twice, take several batch reads of the map (the
# next batch read while the last is grouped): were a key's entries split or
# lost between batches, a count of 1 would sort first.
$DTRACE -q -c "$WORKLOADS/getppid 60000" -n '
  syscall::getppid:entry /pid == $target/ { @keys[self->n++ % 30000] = count(); @calls = count(); }
  END {
    trunc(@keys, -3);
    printa("%d %@d\n", @keys);
    printa("calls %@d\n", @calls);
  }'
