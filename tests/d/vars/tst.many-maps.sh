# 100 aggregations and 100 dynamic variables in one clause: more maps than
# the kernel lets one program use (64), so the program reaches them through
# arrays of maps; every one still holds its own values, and each dynamic
# variable keeps its own dynvarsize.
body= check=
for i in $(seq 1 100); do
  case $((i % 4)) in
    0) body+="@a$i = count(); @a$i = count(); " ;;
    1) body+="@a$i[\"k$i\", $i] = sum($i * 10); " ;;
    2) body+="@a$i[$i] = max($i); @a$i[$i] = max(-$i); " ;;
    3) body+="@a$i = avg($i); @a$i = avg(3 * $i); " ;;
  esac
  case $((i % 4)) in
    1) check+="printa(\"a$i %s %d %@d\\n\", @a$i); " ;;
    2) check+="printa(\"a$i %d %@d\\n\", @a$i); " ;;
    *) check+="printa(\"a$i %@d\\n\", @a$i); " ;;
  esac
done
for i in $(seq 1 50); do
  if ((i % 2)); then
    body+="x$i[$i, \"k\"] = $i * 3; self->t$i = $i * 7; "
    check+="printf(\"x$i %d t$i %d\\n\", x$i[$i, \"k\"], self->t$i); "
  else
    body+="x$i[$i] = \"v$i\"; self->t$i = \"t$i\"; "
    check+="printf(\"x$i %s t$i %s\\n\", x$i[$i], self->t$i); "
  fi
done
# Storing 0 frees an element: it reads as 0 again.
body+="x1[1, \"k\"] = 0; self->t3 = 0; "
check+="printf(\"freed %d %d\\n\", x1[1, \"k\"], self->t3); "
# END reads them back (BEGIN and END run in the consumer's thread).
$DTRACE -q -n "BEGIN { $body exit(0); } END { $check }"

# Thread-locals set at a system call's entry are the thread's at its
# return, each variable on its own.
entry= ret=
for i in $(seq 1 70); do
  entry+="self->e$i = $i * 2; "
  ret+="@sum = sum(self->e$i); self->e$i = 0; "
done
$DTRACE -q -c "$WORKLOADS/getppid 10" -n "
  syscall::getppid:entry /pid == \$target/ { $entry }
  syscall::getppid:return /pid == \$target/ { $ret }
  END { printa(\"thread-locals %@d\\n\", @sum); }"

# dynvarsize=1 gives each variable 64 elements: 100 keys in one of 70
# arrays drop 36, while the others still take theirs.
messages=$(mktemp)
trap 'rm -f "$messages"' EXIT
stores=
for i in $(seq 2 70); do stores+="d$i[self->n] = 1; "; done
$DTRACE -q -x dynvarsize=1 -c "$WORKLOADS/getppid 100" -n "
  self int n;
  syscall::getppid:entry /pid == \$target/ { d1[self->n] = 1; }
  syscall::getppid:entry /pid == \$target && self->n < 10/ { $stores }
  syscall::getppid:entry /pid == \$target/ { self->n++; }
  END { printf(\"kept %d %d %d\\n\", d1[63], d2[9], d70[9]); }" 2>"$messages"
cat "$messages"
