# -x setenv and -x unsetenv edit the environment of -c commands only
# (libdtrace's dt_opt_setenv); in a program they are refused.
unset DT_SETENV_A DT_SETENV_B
export DT_SETENV_GONE=here
$DTRACE -q -x setenv=DT_SETENV_A=1 -x setenv=DT_SETENV_B=two -x setenv=DT_SETENV_A=one \
  -x unsetenv=DT_SETENV_GONE -n 'BEGIN {}' -c env | grep '^DT_SETENV' | sort
echo "dtrace's own: ${DT_SETENV_GONE:-unset}"
$DTRACE -e -x unsetenv=A=b -n 'BEGIN {}' 2>&1
f=$(mktemp --suffix=.d)
trap 'rm -f "$f"' EXIT
printf '#pragma D option setenv=A=b\nBEGIN { exit(0); }\n' > "$f"
$DTRACE -e -s "$f" 2>&1 | sed "s|$f|SCRIPT|"
