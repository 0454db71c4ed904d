# -C defines __SUNW_D_VERSION as DTrace's version number (1.13).
f=$(mktemp --suffix=.d)
trap 'rm -f "$f"' EXIT
echo 'BEGIN { printf("%x\n", __SUNW_D_VERSION); exit(0); }' > "$f"
$DTRACE -qC -s "$f"
