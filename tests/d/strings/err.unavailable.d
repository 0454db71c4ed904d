/* Subroutines that read Solaris kernel objects are refused by name. */
BEGIN
{
	trace(mutex_owned(0));
}
