# Only the string subroutines' nesting takes their work areas in scratch
# space: with strsize=4096 one level fits (illumos has no such limit; see
# cli/err.scratch-limit.sh for two levels, which do not).
$DTRACE -x strsize=4096 -qn 'BEGIN { printf("%d %s\n", index("abc", "c"), basename("/a/bc")); exit(0); }'
