/* Kernel variables (`name) have neither an address nor a type on Linux:
   the program is refused with a message that says so. */
BEGIN
{
	trace(`jiffies);
}
