# dtrace -lv shows the translated argument types, as the Guide's proc
# chapter gives them (exec has three sources, each a probe).
for probe in create lwp-create exec exec-failure exit signal-send signal-handle signal-clear; do
  echo "$probe"
  $DTRACE -lv -n "proc:::$probe" | sed -n '/Argument Types/,$p' | grep 'args\['
done
