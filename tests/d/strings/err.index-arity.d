BEGIN
{
	trace(index("a"));
}
