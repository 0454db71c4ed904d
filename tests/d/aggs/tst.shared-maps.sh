# Aggregations reached through arrays of maps (60 in one clause, beyond the
# 64 maps one program may use) are read, truncated, cleared, normalized
# and printed (together, per CPU, as JSON) as any other.
fill= fills= formats=
for i in $(seq 4 60); do
  fill+="@f$i = sum($i); "
  fills+=", @f$i"
  formats+=" %@d"
done
script="
  BEGIN {
    @top[\"a\"] = sum(10); @top[\"b\"] = sum(30); @top[\"c\"] = sum(20);
    @gone[1] = count(); @gone[2] = count();
    @ms = sum(3000); @dist = quantize(5); @dist = quantize(700);
    $fill
  }
  BEGIN { trunc(@top, 2); clear(@gone); normalize(@ms, 1000); }
  BEGIN {
    printa(@top); printa(@gone); printa(@ms); printa(@dist);
    printa(\"f$formats\\n\" $fills);
    exit(0);
  }"
$DTRACE -q -n "$script"
# BEGIN runs on the consumer's CPU.
taskset -c 0 $DTRACE -q -x aggpercpu -n "$script" | grep -E '^ +(b|c|\[CPU 0\]) '
$DTRACE -q -x oformat=json -n "$script" | grep '"top"' |
  sed -E 's/"(timestamp|cpu)":[0-9]+,//g'
