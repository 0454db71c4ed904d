/*
 * Typedef names scoped with D` or C` (D`dqstr_t) name the program's own
 * types and D's, in casts, sizeof and declarations alike, also in the
 * program that defines them (tst.scoped-types.d has struct tags and the
 * kernel's scope).
 */
#pragma D option quiet

typedef struct pair {
	int first;
	int second;
} pair_t;

D`pair_t saved;

BEGIN
{
	p = (D`pair_t *)alloca(sizeof (D`pair_t));
	p->first = 1;
	p->second = 2;
	saved = *p;
	printf("%d %d %d\n", sizeof (D`pair_t), sizeof (struct D`pair), saved.second);
	printf("%d %d %d\n", sizeof (C`int), sizeof (D`uint64_t), sizeof (C`char));
	exit(0);
}
