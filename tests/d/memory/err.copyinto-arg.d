BEGIN
{
	copyinto(0, 4, "x");
}
