/* sizeof and stringof of a variable never assigned make it an int64_t, as
   dt_cook_op1 declares an unreferenced variable for any unary operator. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", sizeof(a[1]), sizeof(self->x), sizeof(this->y));
	exit(0);
}
