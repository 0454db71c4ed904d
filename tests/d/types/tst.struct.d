/* Structs held in D variables: globals, clause-locals, thread-locals and
   associative arrays of structs, as in the Guide's rwinfo.d example. */
#pragma D option quiet

struct callinfo {
	uint64_t ts;
	uint64_t elapsed;
	uint64_t calls;
	size_t maxbytes;
};

struct callinfo i[string];
struct callinfo g;
self struct callinfo s;

BEGIN
{
	i["read"].calls++;
	i["read"].calls++;
	i["read"].maxbytes = 100 > i["read"].maxbytes ? 100 : i["read"].maxbytes;
	i["write"].ts = 7;
	g.calls = 3;
	g.elapsed = g.calls * 2;
	self->s.calls = 9;
	printf("%d %d %d %d\n", i["read"].calls, i["read"].maxbytes, i["write"].ts, i["none"].calls);
	printf("%d %d %d\n", g.calls, g.elapsed, self->s.calls);
	printf("%d %d %d\n", sizeof (struct callinfo), offsetof(struct callinfo, calls), sizeof (g));
	exit(0);
}
