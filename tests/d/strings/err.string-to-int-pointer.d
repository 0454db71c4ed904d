/* Only a char pointer takes a string: an int pointer does not. */
int *ip;

BEGIN
{
	ip = "abc";
}
