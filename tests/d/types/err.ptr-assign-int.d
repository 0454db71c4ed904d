/* Only constant 0 is a pointer among the integers. */
BEGIN
{
	this->p = (int *)alloca(8);
	this->p = 5;
}
