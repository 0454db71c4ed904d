# The Guide's idiom: every openat(2) of the workload is traced into a
# speculation; only the failing ones are committed, with their path and
# errno, and the successful ones are discarded. Each use of the one
# speculation (nspec=1) is freed by its commit or discard, so the next
# openat gets it again.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
touch "$work/present"
$DTRACE -q -c "cat $work/present $work/missing-1 $work/present $work/missing-2" -n '
syscall::openat:entry /pid == $target/ {
	self->spec = speculation();
	self->path = arg1;
}
syscall::openat:return /self->spec/ {
	speculate(self->spec);
	printf("%s errno %d\n", basename(copyinstr(self->path)), errno);
}
syscall::openat:return /self->spec && errno != 0/ { commit(self->spec); self->spec = 0; }
syscall::openat:return /self->spec/ { discard(self->spec); self->spec = 0; }' 2>/dev/null | grep missing
