# cwd and root name the current process's directories, across mounts; a
# path longer than strsize keeps its last components.
show() { $DTRACE -q "$@" -n 'BEGIN { printf("%s %s %d\n", cwd, root, cwd == $$1); exit(0); }' "$(pwd -P)"; }
cd /proc/sys/kernel && show
cd /dev/shm && show
cd / && show
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/aaaaaaaaaa/bbbbbbbbbb/cccccccccc"
cd "$dir/aaaaaaaaaa/bbbbbbbbbb/cccccccccc" && show | awk '{ print $3 }'
$DTRACE -x strsize=32 -qn 'BEGIN { printf("%s\n", cwd); exit(0); }'
# The traced process's directory, as a key.
cd /proc && $DTRACE -q -c "$WORKLOADS/getppid 3" -n '
syscall::getppid:entry /pid == $target/ { @[cwd] = count(); }'
