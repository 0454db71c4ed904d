/*
 * trace() of a struct, union or array prints its bytes: as a string when
 * they are printable characters followed only by NULs, else as a hex dump,
 * whatever their size (a 4-byte union is no integer).
 */
#pragma D option quiet

struct pair {
	int	a;
	char	b;
	int	c;
} st;

union word {
	int	a;
	char	b[3];
	short	c;
} u;

struct named {
	char	name[8];
} n;

int arr[3];

BEGIN
{
	st.a = 0x1234;
	st.c = 0x9876;
	u.a = 0x12345678;
	arr[0] = 1;
	arr[2] = -1;
	n.name[0] = 'o';
	n.name[1] = 'k';
	trace(st);
	trace(u);
	trace(arr);
	trace(n);
	trace("\n");
	trace(n.name);
	trace("\n");
	exit(0);
}
