# system() runs its formatted command with sh -c, in order with the other
# output (what was printed before it is flushed first); its exit status is
# ignored; the command runs with no signal blocked, whatever dtrace blocks.
$DTRACE -wqn 'BEGIN {
	printf("one\n");
	system("echo %s %d; exit 3", "two", 2);
	printf("three\n");
	system("grep SigBlk /proc/self/status");
	system("printf \"%%s\\n\" \"%s\"", probename);
	exit(0);
}'
echo "status $?"
