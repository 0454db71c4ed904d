/*
 * timestamp is sampled once per probe firing: two reads in a clause, and
 * reads in two clauses of one firing, agree; a later firing reads later.
 */
#pragma D option quiet

BEGIN
{
	this->a = timestamp;
	this->b = timestamp;
	self->t = timestamp;
	printf("%d\n", this->a == this->b);
}

BEGIN
{
	printf("%d\n", timestamp == self->t);
	exit(0);
}

END
{
	printf("%d\n", timestamp > self->t);
}
