# BEGIN's records are read before any other CPU's (as dt_consume_begin()
# reads the buffer of BEGIN's CPU first), so a freopen() in BEGIN takes
# every later record along, even those a probe recorded on another CPU the
# moment tracing became active, while the consumer took the aggregations'
# first snapshot.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for run in 1 2 3 4 5 6; do
	$DTRACE -wqn 'BEGIN /0/ { @ = count(); }
	BEGIN { freopen("%s/out", $$1); }
	profile-4000hz { printf("fired\n"); printa(@); }
	profile-4000hz /++n == 50/ { exit(0); }' "$dir" > "$dir/stdout"
	# Other CPUs may fire a few more times before exit() takes effect.
	infile=$(grep -c fired "$dir/out")
	echo "run $run: $(grep -c fired "$dir/stdout") on stdout, at least 50 in the file: $([ "$infile" -ge 50 ] && echo yes || echo "no ($infile)")"
	rm -f "$dir/out"
done
