/*
 * Stores through pointers go where illumos's dtrace_canstore lets them:
 * into the bytes of global and clause-local variables
 * (dtrace_canstore_statvar), each variable on its own, and into the value
 * of a dynamic variable's element. Past a variable's end, into an element
 * freed since, or into kernel memory, a store is an invalid address; a
 * misaligned one, once its place is writable, an invalid alignment.
 * bcopy() writes only scratch memory (dtrace_inscratch).
 */
#pragma D option quiet

struct s {
	int a;
	int b;
};

struct t {
	int z;
	struct s x;
};

struct s g;
struct t h;
struct t at[int];
int arr[5];
int after[5];
self struct s sv;
this struct s tv;
struct s assoc[int];

BEGIN { p1 = &g.b; *p1 = 7; printf("global member %d\n", g.b); }
BEGIN { p2 = &arr[0]; p2[3] = 9; printf("global array %d\n", arr[3]); }
BEGIN { self->sv.b = 5; p3 = &self->sv.b; *p3 = 7; printf("thread-local %d\n", self->sv.b); }
BEGIN { this->tv.b = 5; p4 = &this->tv.b; *p4 = 7; printf("clause-local %d\n", this->tv.b); }
BEGIN { assoc[1].b = 5; p5 = &assoc[1].b; *p5 = 7; (*p5)++; printf("associative %d\n", assoc[1].b); }
BEGIN { g.a = 1; g.b = 2; p6 = &h.x; *p6 = g; p6->b = 3; printf("struct %d %d\n", h.x.a, h.x.b); }
BEGIN { at[1].z = 9; p7 = &at[1].x; *p7 = g; p7->a = 4; printf("struct element %d %d %d\n", at[1].x.a, at[1].x.b, at[1].z); }
BEGIN { bcopy("hi", (char *)&g.a, 3); }
BEGIN { p9 = &arr[0]; p9[5] = 1; }
BEGIN { assoc[2].a = 1; p10 = &assoc[2].a; assoc[2] = 0; *p10 = 3; }
BEGIN { p11 = (int *)curthread; *p11 = 1; }
BEGIN { c = (char *)&g.a; *(int *)(c + 1) = 1; }
BEGIN { printf("after %d\n", after[0]); exit(0); }

ERROR { printf("fault %d\n", arg4); }
