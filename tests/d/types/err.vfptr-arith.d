/* void * has no size to scale by: no arithmetic on it. */
BEGIN
{
	this->v = alloca(8);
	this->v += 1;
}
