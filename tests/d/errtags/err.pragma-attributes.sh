# #pragma D attributes on an identifier (dt_pragma_attributes): a built-in
# is outside the program's scope, a name the program defines (before or
# after the pragma) takes them, and a name it never defines is an unused
# pragma. A pragma's error comes before a syntax error after it, as DTrace
# acts on a pragma when its lexer reads it.
script=$(mktemp)
trap 'rm -f $script' EXIT
check() {
	printf "$1" > "$script"
	$DTRACE -q -x errtags -s "$script" 2>&1 | sed "s|$script|script.d|" >&2
}
echo defined later: >&2
check '#pragma D attributes Stable/Stable/Common mine\nint mine;\nBEGIN { mine = 1; exit(0); }\n'
echo defined before: >&2
check 'inline int two = 2;\n#pragma D attributes Evolving/Evolving/Common two\nBEGIN { exit(two - 2); }\n'
check '#pragma D attributes Stable/Stable/Common nosuch\nBEGIN { exit(0); }\n'
check '#pragma D attributes Stable/Stable/Common pid\nBEGIN { exit(0); }\n'
check '#pragma D attributes Stable/Stable/Common trace\nBEGIN { exit(0); }\n'
check 'inline int foo\n#pragma D attributes bad_attributes foo\nBEGIN { exit(0); }\n'
exit 1
