/* Pointer arithmetic scales by the pointee's size; *, [] and -> read and
   write scratch memory from alloca(). */
#pragma D option quiet

struct pair {
	int first;
	int second;
};

BEGIN
{
	this->p = (int *)alloca(4 * sizeof (int));
	*this->p = 5;
	this->p[1] = 6;
	*(this->p + 2) = 7;
	this->q = this->p + 3;
	*this->q = this->p[0] + this->p[1];
	printf("%d %d %d %d\n", this->p[0], *(this->p + 1), this->p[2], *this->q);
	printf("%d %d\n", this->q - this->p, (char *)this->q - (char *)this->p);
	this->s = (struct pair *)this->p;
	this->s->second = 42;
	printf("%d %d %d\n", this->s->first, this->s->second, (*this->s).second);
	printf("%d\n", &this->s->second == (int *)this->p + 1);
	this->q--;
	printf("%d\n", this->q - this->p);
	exit(0);
}
