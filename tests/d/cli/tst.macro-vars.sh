# $target is 0 without -c/-p; $euid, $egid, $sid and $pgid exist.
$DTRACE -qn 'BEGIN { printf("%d %d %d %d %d\n", $target, $euid == $uid, $egid == $gid,
    $sid > 0, $pgid > 0); exit(0); }'
$DTRACE -qn 'BEGIN { printf("[%s]\n", $$target); exit(0); }'
