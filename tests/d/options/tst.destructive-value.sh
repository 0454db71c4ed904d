# destructive is a run-time switch (dt_opt_runtime): it takes a value, and
# "no" leaves destructive actions refused.
$DTRACE -q -x destructive=1 -n 'BEGIN { system("echo allowed"); exit(0); }'
$DTRACE -q -x destructive=no -n 'BEGIN { system("echo allowed"); exit(0); }' 2>&1
f=$(mktemp --suffix=.d)
trap 'rm -f "$f"' EXIT
printf '#pragma D option destructive=yes\nBEGIN { system("echo by pragma"); exit(0); }\n' > "$f"
$DTRACE -qs "$f"
