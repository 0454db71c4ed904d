/* The format must be a string: anything else mismatches the prototype. */
#pragma D option errtags

BEGIN
{
	printf(123);
}
