/* p += n and p -= n move a pointer by n objects, as p = p + n does. */
#pragma D option quiet

BEGIN
{
	this->p = (int *)alloca(4 * sizeof (int));
	this->p[0] = 10;
	this->p[1] = 11;
	this->p[2] = 12;
	this->p[3] = 13;
	this->q = this->p;
	this->q += 3;
	printf("%d %d\n", *this->q, this->q - this->p);
	this->n = -2;
	this->q += this->n;
	printf("%d\n", *this->q);
	this->q -= 1;
	printf("%d %d\n", *this->q, this->q == this->p);
	exit(0);
}
