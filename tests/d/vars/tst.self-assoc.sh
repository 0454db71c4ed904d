# Thread-local associative arrays (self->a[k]): keyed by the thread and the
# tuple; unset elements read as 0, storing 0 frees one, and another thread
# sees none of them.
$DTRACE -q -c "$WORKLOADS/getppid 2" -n '
self int declared[int];
BEGIN
{
	self->a[1, "x"] = 5;
	self->a[2, "y"] = 7;
	self->declared[3] = 9;
	printf("%d %d %d %d\n", self->a[1, "x"], self->a[2, "y"], self->a[3, "z"], self->declared[3]);
	self->a[1, "x"] = 0;
	printf("%d\n", self->a[1, "x"]);
}
syscall::getppid:entry /pid == $target && n++ == 0/
{
	printf("other thread: %d %d\n", self->a[2, "y"], self->declared[3]);
	self->a[2, "y"] = 1;
}
syscall::getppid:entry /pid == $target && n == 2/
{
	printf("same thread later: %d\n", self->a[2, "y"]);
}'
