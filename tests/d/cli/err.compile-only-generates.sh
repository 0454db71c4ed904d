# -e compiles completely, as dtrace_program_strcompile() generates DIF: a
# program the code generator cannot lay out is refused by -e too (here a
# strsize larger than scratch space holds), not only once tracing starts.
$DTRACE -e -x strsize=100000 -n 'BEGIN { trace("a"); }'
