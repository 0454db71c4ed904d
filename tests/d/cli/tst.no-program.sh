# As dtrace(1M)'s main(): -e with nothing to compile is done (status 0);
# options but no program is "no probes specified" (status 1); usage is
# for no arguments at all (status 2).
$DTRACE -b 1k -b 2k -e
echo "status $?"
$DTRACE -q -x bufsize=8k 2>&1
echo "status $?"
$DTRACE 2>/dev/null
echo "status $?"
