# io's probes carry the request as bufinfo_t, devinfo_t and fileinfo_t.
$DTRACE -l -P io | awk 'NR > 1 { print $2, $3, $4 }'
$DTRACE -lv -n 'io:::start' | sed -n '/Argument Types/,$p' | grep 'args\['
