int a[4];
BEGIN
{
	a[4] = 1;
}
