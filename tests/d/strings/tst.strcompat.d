/* char arrays and char pointers compare with strings as strings, and mix
   with strings in ?: (DTrace's string-compatible types). */
#pragma D option quiet

BEGIN
{
	p = (char *)alloca(4);
	p[0] = 'h';
	p[1] = 'i';
	p[2] = '\0';
	printf("%d %d %d %d\n", curthread->comm == "dtrace", curthread->comm != execname,
	    "dtracf" > curthread->comm, p == "hi");
	x = 0 ? "no" : curthread->comm;
	y = 1 ? p : "no";
	printf("%s %s\n", x, y);
	exit(0);
}
