# sched's probes and their translated argument types, as the Guide's sched
# chapter gives them.
$DTRACE -l -P sched | awk 'NR > 1 { print $2, $3, $4 }'
for probe in off-cpu enqueue; do
  echo "$probe"
  $DTRACE -lv -n "sched:::$probe" | sed -n '/Argument Types/,$p' | grep 'args\['
done
