# The classic latency idiom: self->ts set at entry, used and cleared at return.
$DTRACE -q -c "$WORKLOADS/getppid 25" -n '
syscall::getppid:entry /pid == $target/ { self->ts = timestamp; }
syscall::getppid:return /self->ts/ { @timed = count(); @positive = min(timestamp - self->ts > 0); self->ts = 0; }
syscall::getppid:return /self->ts == 0 && pid == $target/ { @cleared = count(); }'
