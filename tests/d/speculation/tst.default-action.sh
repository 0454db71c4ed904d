# A clause with only speculate() traces the default action into the
# speculation: its probe line prints when committed, after the line of the
# clause that printed first. A clause that only commits prints nothing of
# its own; nor does one that only discards. (The CPU column is masked.)
$DTRACE -n 'BEGIN { s = speculation(); trace(s); }
BEGIN { speculate(s); }
BEGIN { commit(s); }
BEGIN { t = speculation(); }
BEGIN { speculate(t); }
BEGIN { discard(t); }
BEGIN { trace("end"); exit(0); }' 2>/dev/null | sed -E 's/^ +[0-9]+ ( +[0-9]+ )/  C\1/'
