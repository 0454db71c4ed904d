BEGIN
{
	bcopy(0, 0);
}
