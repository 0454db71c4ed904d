# -v: dtrace(1M)'s exec_prog() report of each program's minimum probe
# description and statement attributes (an unnamed provider is Unstable;
# curthread's data is Private; args[] has the provider's argument
# attributes), and with -e each description's probe information.
f=$(mktemp --suffix=.d)
trap 'rm -f "$f"' EXIT
printf 'BEGIN\n{\n\tprintf("%%d\\n", 2);\n\texit(0);\n}\n' > "$f"
$DTRACE -qv -s "$f" | sed "s|$f|SCRIPT|"
$DTRACE -ev -n 'dtrace:::BEGIN { trace(curthread); }' \
  -n 'syscall::read:entry { @[args[0]] = count(); } syscall:::return {}'
