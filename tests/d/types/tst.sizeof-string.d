/* Every string is D's string type, strsize bytes (dt_node_sizeof): execname,
   literals and ?: of them alike; a char array keeps its own size. */
#pragma D option quiet
#pragma D option strsize=32

BEGIN
{
	printf("%d %d %d %d\n", sizeof(execname), sizeof("abc"), sizeof(1 ? "a" : "bc"),
	    sizeof(curthread->comm));
	exit(0);
}
