/*
 * trace() of a string prints it as DTrace prints a string it stored
 * zero-padded: a short string traced where a longer one was recorded
 * before prints as itself, not as a dump of the bytes after its NUL.
 */
#pragma D option quiet

BEGIN
{
	trace("0123456789abcdef0123456789");
	printf("\n");
}

BEGIN
{
	s = "ab";
	trace(s);
	printf("\n");
}

BEGIN
{
	this->t = strjoin("c", "d");
	trace(this->t);
	printf("\n");
	exit(0);
}
