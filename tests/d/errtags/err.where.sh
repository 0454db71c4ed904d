# Where DTrace reports a declaration's or an expression's error: on the
# line its parser had reached when it built the construct (the token after
# a struct's tag, a translator's closing ";", the token after a binary
# operator's right operand; a predicate's closing "/" looks ahead to the
# next character). And the messages of dt_decl and dt_node_inline.
script=$(mktemp)
trap 'rm -f $script' EXIT
check() {
	printf "$1" > "$script"
	$DTRACE -x errtags -s "$script" 2>&1 >/dev/null | sed "s|$script|script.d|" >&2
}
check 'BEGIN\n/arg0[0/\n{\n\ttrace(1);\n}\n'
check 'BEGIN\n/rand(/\n\n{\n}\n'
check 'BEGIN\n/"a" & "b"/\n{\n}\n'
check 'BEGIN\n{\n\tx = "a" |\n\t    "b";\n}\n'
check 'long struct s\n{\n\tint i;\n};\n'
check 'struct a {\n\tint x;\n}\n\nstruct b {\n\tint y;\n};\n'
check 'union a {\n\tint x;\n} union b;\n'
check 'struct i { int a; };\nstruct o { int b; };\ntranslator struct o < struct i *p > {\n\tb = p->a;\n};\ntranslator struct o < struct i *p > {\n\tb = p->a;\n};\n'
check 'struct i { int a; };\nstruct o { int b; };\ntranslator struct o < struct i *p > {\n\tc = p->a;\n};\n'
check 'struct i { int a; };\ntranslator struct nosuch < struct i *p > {\n\tc = p->a;\n};\n'
check 'int f(static int);\n'
check 'int g(int a[int]);\n'
check 'BEGIN { x = (short long)0; }\n'
check 'BEGIN { x = (signed unsigned)0; }\n'
check 'BEGIN { x = (short short)0; }\n'
check 'struct s { float : 1; } x;\n'
check 'BEGIN { trace(sizeof (`)); }\n'
check 'inline int count = 7;\n'
check 'inline int pid = 7;\n'
check 'inline int x = 1;\ninline int x = 2;\n'
check 'inline int add[int a, int b] = a + b;\nBEGIN { trace(add); }\n'
check 'inline int add[int a, int b] = a + b;\nBEGIN { trace(add[1]); }\n'
check 'inline int add[int a, int b] = a + b;\nBEGIN { trace(add[1, "x"]); }\n'
check 'struct in { int i; };\nstruct out { int o; };\ntranslator struct out < struct in *p > { o = p->i; };\nstruct in *f;\nBEGIN\n{\n\ta = (long)xlate<struct out *>(f)\n}\n'
check 'struct in { int i; };\nstruct out { int o; };\ntranslator struct out < struct in *p > { o = p->i; };\nstruct in *f;\nBEGIN\n{\n\ta = (uintptr_t)xlate<struct out *>(f)\n}\n'
check 'struct s { int a; } v;\nBEGIN { trace((uint32_t *)v); }\n'
exit 1
