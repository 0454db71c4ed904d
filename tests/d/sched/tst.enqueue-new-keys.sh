# A probe that fires with interrupts disabled (sched:::enqueue holds the
# run queue's lock) adds several new keys at once, and none is dropped:
# the maps' element caches were filled on every CPU before tracing began.
# The keys hold a string variable, so that the maps' elements are large
# (the kernel gives a new map's cache one such element).
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for run in 1 2 3; do
	$DTRACE -qn '
	BEGIN { s = "sleep"; }
	sched:::enqueue /args[1]->pr_pid == $target/ {
		@[s, 1] = count(); @[s, 2] = count(); @[s, 3] = count();
		seen[s, timestamp, 1] = 1; seen[s, timestamp, 2] = 1;
	}' -c 'sleep 0.2' > /dev/null 2> "$err"
	echo "run $run: $(grep -c drop "$err") drop lines"
done
