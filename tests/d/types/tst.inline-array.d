/*
 * Inline declarations of every kind: a folded constant, a string, an
 * expression of variables, a translated struct, and inline arrays whose
 * parameters stand for the keys of each use (nested uses included).
 */
#pragma D option quiet

inline int base = 100 + 23;
inline string name = probename;
inline int known = pid != 0;

struct pair {
	int p_x;
};

translator struct pair < int T > {
	p_x = T + 1;
};

inline struct pair xl = xlate < struct pair > (base);
inline int add[int a, int b] = a * 10 + b;
inline int twice[int a] = add[a, a];
inline int viaxlate[int v] = (xlate < struct pair > (v)).p_x;

BEGIN
{
	x = 2;
	printf("%d %s %d %d\n", base, name, known, xl.p_x);
	printf("%d %d %d %d\n", add[x, 3], twice[x + 1], add[add[1, 2], 0], viaxlate[41]);
	exit(0);
}
