/* Whole structs are copied by assignment into every kind of D variable,
   from other variables, from memory and from a translator; trace() of a
   struct records its bytes. An element never stored copies as zeros. */
#pragma D option quiet

struct pair {
	int a;
	int b;
	char name[8];
};

struct pair g, h;
struct pair arr[int];

BEGIN
{
	p = (struct pair *)alloca(sizeof (struct pair));
	p->a = 1;
	p->b = 2;
	g = *p;
	h = g;
	this->l = h;
	self->t = this->l;
	arr[1] = self->t;
	this->z = arr[5];
	printf("%d %d %d %d %d\n", g.b, h.b, this->l.b, self->t.a, arr[1].b);
	printf("%d %d\n", this->z.a, this->z.b);

	this->ps = *curpsinfo;
	self->ps = xlate <psinfo_t> (curthread);
	printf("%d %d %s\n", this->ps.pr_pid == pid, self->ps.pr_ppid == ppid, this->ps.pr_fname);
	printf("%d\n", (*curpsinfo).pr_pid == pid);

	p->a = 0x41;
	p->b = 0;
	trace(*p);
	printf("\n");
	p->a = 0x01020304;
	trace(*p);
	exit(0);
}
