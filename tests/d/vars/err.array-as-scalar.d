/* An associative array cannot be assigned as a scalar (D_IDENT_BADREF). */
BEGIN
{
	a[1] = 1;
	a++;
}
