/* Integer arithmetic follows C: conversions, overflow, shifts, division. */
#pragma D option quiet

BEGIN
{
	x = 5;
	x *= 3;
	y = x / 2;
	z = -7 % 3;
	u = (unsigned char)300;
	s = (char)200;
	big = 0x7fffffffffffffff;
	wrap = big + 1;
	neg = -1;
	printf("%d %d %d %d %d\n", x, y, z, u, s);
	printf("%d %d\n", wrap < 0, (unsigned int)neg == 4294967295);
	printf("%d %d %d\n", 1 << 4, -16 >> 2, 0xf0 >> 4);
	printf("%d %d %d %d\n", 7 & 3, 7 | 8, 7 ^ 2, ~0);
	printf("%d %d %d %d\n", 1 && 0, 1 || 0, 1 ^^ 1, !5);
	printf("%d %d\n", x > y ? 1 : 2, x++ + ++x);
	exit(0);
}
