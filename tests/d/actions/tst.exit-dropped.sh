# exit() ends tracing even when its record is dropped: here the principal
# buffer (4 KiB) holds four 1 KiB records, and the fifth carries exit().
# Without the kernel-side exit status dtrace would wait forever.
err=$(mktemp)
trap 'rm -f "$err"' EXIT
timeout 20 $DTRACE -q -b 4k -x strsize=999 -n '
	BEGIN { this->s = "a"; trace(this->s); }
	BEGIN { this->s = "b"; trace(this->s); }
	BEGIN { this->s = "c"; trace(this->s); }
	BEGIN { this->s = "d"; trace(this->s); }
	BEGIN { this->s = "e"; trace(this->s); exit(7); }' 2>"$err"
echo "status $?"
sed -E 's/CPU [0-9]+/CPU N/' "$err"
