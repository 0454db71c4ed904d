BEGIN
{
	trace(strlen(42));
}
