# With libc's debug symbols installed, their table spells a versioned
# function "pthread_mutex_lock@@GLIBC_2.2.5": the pid provider names it
# as callers do, and finds local functions only the debug symbols name.
$DTRACE -q -c "$WORKLOADS/contended_mutex" -n '
pid$target:libc.so.6:pthread_mutex_lock:entry { @calls[probefunc] = count(); }
pid$target:libc.so.6:__lll_lock_wait:entry { @waits[probefunc] = count(); }
END {
  printa("%s %@d\n", @calls);
  printa("%s %@d\n", @waits);
}' | awk 'NF == 0 || $1 == "mutex" || $1 == "rwlock" { next }
        { print $1, ($1 == "pthread_mutex_lock" ? ($2 >= 2000 ? "at least 2000" : $2) : ($2 > 0 ? "some" : "none")) }'
