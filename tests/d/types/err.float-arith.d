/* D does no floating-point arithmetic. */
double d;

BEGIN
{
	trace(d * 2);
}
