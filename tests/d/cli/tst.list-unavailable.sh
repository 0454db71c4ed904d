# -l of a description nothing matches, an unavailable provider's (fbt on
# this kernel) included, says so as dtrace(1M)'s list_stmt() does and the
# listing goes on (status 0); enabling such a description gives the
# reason instead.
$DTRACE -l -n 'fbt:des:des3_crunch_block:return' -n 'dtrace:::BEGIN' -n nosuch 2>&1
echo "status $?"
$DTRACE -n 'fbt::vfs_read:entry' 2>&1 | sed 's/: this kernel.*//'
echo "status ${PIPESTATUS[0]}"
