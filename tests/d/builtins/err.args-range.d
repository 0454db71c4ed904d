/* getppid(2) takes no arguments. */
syscall::getppid:entry
{
	trace(args[0]);
}
