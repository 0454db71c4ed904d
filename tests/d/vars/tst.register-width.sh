# A D variable holds a whole register, as DIF's STGS/STTS/STLS store it
# (illumos dt_cg_asgn_op): a variable first given an int keeps a later
# 64-bit timestamp whole, so a latency is not the uptime (DTraceToolkit's
# procsystime). A record still has the variable's type's width; an integer
# constant assigned is converted to the variable's type (dt_assign_common).
$DTRACE -q -c "$WORKLOADS/getppid 3" -n '
BEGIN { g = 0; a[1] = 0; }
BEGIN { g = timestamp; a[1] = timestamp; }
syscall::getppid:entry /pid == $target/ { self->t = 0; self->t = timestamp; }
syscall::getppid:return /self->t/ {
	@lat = max(timestamp - self->t < 1000000000);
	@old = max(timestamp - g < 60000000000 && timestamp - a[1] < 60000000000);
	self->t = 0;
}
END {
	x = 0;
	wide = 0x100000005;
	x = wide;
	this->y = 0;
	this->y = x;
	printa("entry to return under a second: %@d\n", @lat);
	printa("BEGIN under a minute ago: %@d\n", @old);
	printf("%d %d %d\n", x - 5 == 0x100000000, this->y == x, (short)x);
	trace(x);
	x = 0x100000005;
	printf(" %d\n", x == 5);
}'
