# -x evaltime=exec starts tracing once the command's exec has succeeded, as
# Pxcreate() stops a created process: neither the failed exec()s of the
# path search nor the exec itself are traced; what the dynamic linker does
# next is.
PATH=/nonexistent/bin:$PATH $DTRACE -q -x evaltime=exec -c true -n '
syscall::execve:entry /pid == $target/ { execs++; }
syscall::openat:entry /pid == $target/ { opens++; }
END { printf("execve %d, loader opens %s\n", execs, opens > 0 ? "seen" : "unseen"); }'
