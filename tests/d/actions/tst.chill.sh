# chill(ns) spins in probe context for ns nanoseconds.
$DTRACE -wqn 'BEGIN { this->t = timestamp; chill(100000000);
	printf("%s\n", timestamp - this->t >= 100000000 ? "chilled" : "too short"); exit(0); }'
# Each CPU may chill for at most 500 ms in any second, as in DTrace: more,
# or a negative time, is an illegal operation.
$DTRACE -wqn 'BEGIN { chill(400000000); } BEGIN { chill(200000000); } BEGIN { chill(-1); }
	BEGIN { chill(100000000); printf("within the budget\n"); exit(0); }' 2>&1 |
  sed -E 's/DIF offset [0-9]+/DIF offset N/'
