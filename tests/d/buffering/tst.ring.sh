# bufpolicy=ring: each CPU keeps only its newest records, as many as fit in
# bufsize (here three of 16 bytes: header and one value), and they print
# when tracing ends, END's last. dtrace is kept on one CPU, where BEGIN and
# END run.
taskset -c 0 $DTRACE -q -x bufpolicy=ring -x bufsize=48 -n '
BEGIN { printf("%d\n", 1); } BEGIN { printf("%d\n", 2); } BEGIN { printf("%d\n", 3); }
BEGIN { printf("%d\n", 4); } BEGIN { printf("%d\n", 5); } BEGIN { exit(0); }
END { printf("%d\n", 6); }'
echo "with room for all:"
$DTRACE -q -x bufpolicy=ring -n '
BEGIN { printf("%d\n", 1); } BEGIN { printf("%d\n", 2); } BEGIN { exit(0); }'
