# tcp's probes and their argument types; ip and udp are refused with the
# reason.
$DTRACE -l -P tcp | awk 'NR > 1 { print $2, $3, $4 }'
for probe in state-change connect-established; do
  echo "$probe"
  $DTRACE -lv -n "tcp:::$probe" | sed -n '/Argument Types/,$p' | grep 'args\['
done
$DTRACE -l -P ip 2>&1 | tail -1 | cut -d: -f1,2
