# Declarations that start with a typedef name work in -n programs as in
# script files; a lone word is still a probe description.
$DTRACE -qn 'typedef struct foo { int x; } foo_t; foo_t f; uint64_t g; foo_t*p;
BEGIN { f.x = 2; g = 3; printf("%d %d %d\n", f.x + g, sizeof (foo_t), sizeof (p)); exit(0); }'
$DTRACE -ln 'uint64_t' 2>&1 || echo "exit status $?"
