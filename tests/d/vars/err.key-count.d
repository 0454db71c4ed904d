/* DIF has eight tuple registers for keys: a ninth key is refused. */
BEGIN
{
	a[1, 2, 3, 4, 5, 6, 7, 8, 9] = 1;
}
