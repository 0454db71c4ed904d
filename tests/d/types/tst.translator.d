/* A translator maps an input to a struct; xlate<T>(x).m and
   xlate<T *>(x)->m evaluate the member's expression with x bound. */
#pragma D option quiet

typedef struct info {
	int doubled;
	int negated;
	char name[8];
} info_t;

translator info_t < int N > {
	doubled = N * 2;
	negated = -N;
	name = "info";
};

inline info_t *cur = xlate <info_t *> (21);

BEGIN
{
	x = 5;
	printf("%d %d %s\n", xlate <info_t> (x).doubled, xlate <info_t> (x + 1).negated,
	    xlate <info_t> (x).name);
	printf("%d\n", cur->doubled);
	exit(0);
}
