/*
 * A compound assignment reads its left operand before the right side runs,
 * as DTrace does: i += i++ adds the old i.
 */
#pragma D option quiet

BEGIN
{
	i = 1;
	i += i++;
	self->j = 1;
	self->j += self->j++;
	a[1] = 1;
	a[1] += a[1]++;
	x = 5;
	x -= 2;
	x *= 3;
	x <<= 2;
	x >>= 1;
	x /= 2;
	x %= 4;
	printf("%d %d %d %d\n", i, self->j, a[1], x);
	exit(0);
}
