# print() of a whole translated struct: its members are built as the
# translator says (here by the library's psinfo_t translator, which needs
# the string subroutines' scratch space even though the script calls none).
$DTRACE -qn 'BEGIN { print(*curpsinfo); exit(0); }' |
  grep -E '^ +\(struct psinfo\) \{$|\.pr_fname|\.pr_dmodel|^ +}$'
