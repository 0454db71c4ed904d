/*
 * print() of a value that is no pointer shows it with its type: integers,
 * strings, arrays, structs (a kernel struct from BTF too, with its typedef
 * names); lines after the first start at the data column.
 */
#pragma D option quiet

struct point {
	int	x;
	int	y;
};

struct point p;
int counts[3];
struct timespec64 ts;

BEGIN
{
	p.x = 1;
	p.y = -2;
	counts[1] = 5;
	ts.tv_sec = 1700000000;
	ts.tv_nsec = 42;
	print(42);
	print((uint8_t)200);
	print('c');
	print("hello");
	print(p);
	print(counts);
	print(ts);
	exit(0);
}
