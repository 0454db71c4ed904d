# A clause long enough that its jumps outgrow the 16-bit offset once the
# verifier inlines helpers (300 keyed aggregations, as DTrace has no limit)
# loads: far jumps become gotol. (The other aggregations print at exit.)
body=
for i in $(seq 1 300); do body+="@a$i[$i] = sum($i); "; done
$DTRACE -q -n "BEGIN { $body } BEGIN { printa(\"%d %@d\\n\", @a1); printa(\"%d %@d\\n\", @a150); printa(\"%d %@d\\n\", @a300); exit(0); }" | sed -n 1,3p
