# -U removes a definition: #ifdef sees it gone.
f=$(mktemp --suffix=.d)
trap 'rm -f "$f"' EXIT
cat > "$f" <<'EOS'
#ifdef __linux
BEGIN { printf("linux\n"); }
#endif
BEGIN { exit(0); }
EOS
$DTRACE -qC -s "$f"
$DTRACE -qC -U__linux -s "$f"
