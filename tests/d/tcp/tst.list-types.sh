# tcp's probes and their argument types.
$DTRACE -l -P tcp | awk 'NR > 1 { print $2, $3, $4 }'
for probe in state-change connect-established; do
  echo "$probe"
  $DTRACE -lv -n "tcp:::$probe" | sed -n '/Argument Types/,$p' | grep 'args\['
done
