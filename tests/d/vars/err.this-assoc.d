/* Clause-local variables are never associative arrays (D_ARR_LOCAL). */
BEGIN
{
	this->a[1] = 5;
}
