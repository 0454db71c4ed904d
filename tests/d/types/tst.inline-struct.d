/*
 * An inline naming a struct or union variable reads its members, and a
 * translator member given twice takes its first definition.
 */
#pragma D option quiet

struct r {
	char c;
	int i;
	int a[4];
};
struct r rec1;
inline struct r rec2 = rec1;
union u {
	char c;
	int i;
} un1;
inline union u un2 = un1;

struct o {
	int a;
};
translator struct o < int x > {
	a = x;
	a = x + 1;
};

BEGIN
{
	rec1.i = 10;
	rec1.c = 'c';
	un1.c = 'd';
	j = 2;
	rec1.a[2] = 7;
	printf("%d %c %c %d %d\n", rec2.i, rec2.c, un2.c, rec2.a[j], xlate<struct o>(5).a);
	exit(0);
}
