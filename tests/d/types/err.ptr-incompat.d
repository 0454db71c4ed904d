/* Pointers to unrelated types do not compare. */
BEGIN
{
	this->p = (int *)alloca(8);
	trace(this->p == curthread);
}
