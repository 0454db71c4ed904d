# -x defaultargs: unset $N reads as 0 and $$N as ""; $cwd is dtrace's
# working directory.
cd /tmp && $DTRACE -x defaultargs -qn 'BEGIN { printf("%d [%s] %s\n", $1, $$2, $cwd); exit(0); }' &&
$DTRACE -x defaultargs -qn 'BEGIN { printf("%d [%s]\n", $1, $$2); exit(0); }' 7 word
# The option can also be set in the script.
$DTRACE -qn '#pragma D option defaultargs
BEGIN { printf("%d [%s]\n", $3, $$4); exit(0); }'
