# A store through a pointer into a dynamic variable's element, when the
# program uses more maps than the kernel lets one program name and reaches
# them through arrays of maps: the element is still found and written.
script=$(
	echo 'struct s { int a; int b; }; self struct s v;'
	echo 'BEGIN {'
	for i in $(seq 1 70); do echo "self->x$i = $i;"; done
	echo 'self->v.b = 5; p = &self->v.b; *p = 7;'
	echo 'printf("%d %d\n", self->v.b, self->x70); exit(0); }'
)
$DTRACE -q -n "$script"
