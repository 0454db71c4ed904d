# Scripts run as programs: options on the #! line reach dtrace, arguments
# after the script become $1...
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/hello.d" <<EOS
#!$DTRACE -qs
BEGIN { printf("hello %d\n", \$1); exit(0); }
EOS
chmod +x "$dir/hello.d"
"$dir/hello.d" 7
# dtrace -s also honours the options on a script's #! line.
$DTRACE -s "$dir/hello.d" 8
