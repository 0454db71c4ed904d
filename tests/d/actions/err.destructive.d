/*
 * A destructive action without -w (or the destructive option) is refused
 * before anything is enabled, as dtrace_go() refuses it.
 */
BEGIN
{
	raise(9);
}
