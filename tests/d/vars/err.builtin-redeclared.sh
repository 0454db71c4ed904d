# A global may not take the name of a built-in variable, subroutine, action
# or aggregating function (dt_node_decl: "built-in identifier redeclared")
# of the program's D version; under an older -x version a later built-in's
# name is free (strstr came in D 1.1, toupper in 1.8).
check() { $DTRACE -x errtags -e "$@"; }
check -n 'int pid; BEGIN {}'
check -n 'int strstr; BEGIN {}'
check -n 'int count; BEGIN {}'
check -x version=1.1 -n 'int strstr; BEGIN {}'
check -x version=1.0 -n 'int strstr; int toupper; BEGIN { toupper = 1; }' && echo ok >&2
check -x version=1.7 -n 'BEGIN { trace(toupper("a")); }'
false
