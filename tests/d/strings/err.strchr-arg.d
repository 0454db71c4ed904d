BEGIN
{
	trace(strchr("abc", "b"));
}
