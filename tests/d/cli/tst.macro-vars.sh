# $target is 0 without -c/-p; $euid, $egid, $sid and $pgid exist.  dtrace runs
# as its own session leader so that $sid and $pgid do not depend on how the
# tests were started.
setsid $DTRACE -qn 'BEGIN { printf("%d %d %d %d %d\n", $target, $euid == $uid, $egid == $gid,
    $sid == $pid, $pgid == $pid); exit(0); }'
$DTRACE -qn 'BEGIN { printf("[%s]\n", $$target); exit(0); }'
