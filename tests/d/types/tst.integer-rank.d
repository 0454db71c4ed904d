/*
 * DTrace's arithmetic conversions have no promotion to int: of two integer
 * operands the one of higher rank (its width in bits, plus one if it is
 * unsigned) gives the result its type, and a shift or a unary operator
 * keeps its operand's type. The value is cut to that type when recorded.
 */
#pragma D option quiet

self unsigned char C;
self signed char c;
self short s;

BEGIN
{
	self->C = 254;
	self->c = 3;
	printf("%d %d\n", self->C + self->c, self->c + self->C);
	self->C = 253;
	printf("%d\n", self->C + self->C);
	self->s = -2;
	printf("%d\n", self->s + self->C);
	printf("%d %d\n", self->C << 4, -self->C);
	x = self->C + self->C;
	printf("%d %d\n", x, (int)self->C * 2);
	printf("%d\n", self->C * 2 > 255);
	exit(0);
}
