/* inet_ntoa6()'s second argument must be an integer constant. */
BEGIN
{
	n = 0;
	trace(inet_ntoa6((struct in6_addr *)alloca(16), n));
}
