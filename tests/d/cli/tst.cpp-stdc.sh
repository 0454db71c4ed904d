# -X (or -x stdc) as libdtrace's dt_preproc() passes it to cpp: __STDC__ is
# 0 in modes a (the default) and t, 1 in mode c, and undefined in mode s
# (a K&R preprocessor).
f=$(mktemp --suffix=.d)
trap 'rm -f "$f"' EXIT
cat > "$f" <<'EOS'
BEGIN
{
#ifdef __STDC__
	printf("__STDC__ %d\n", __STDC__);
#else
	printf("no __STDC__\n");
#endif
	exit(0);
}
EOS
$DTRACE -qCs "$f"
for mode in a c s t; do
  printf '%s: ' "$mode"
  $DTRACE -qC -X "$mode" -s "$f"
done
$DTRACE -qC -x stdc=s -s "$f"
