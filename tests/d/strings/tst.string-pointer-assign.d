/* A string and a char pointer may be assigned to each other: a string
   variable copies the string at the pointer, a char pointer takes the
   address of a copy of the string, readable until the clause ends. */
#pragma D option quiet

string s;
char *p;

BEGIN
{
	q = (char *)alloca(3);
	q[0] = 'o';
	q[1] = 'k';
	q[2] = '\0';
	s = q;
	q[0] = 'K';	/* s holds its own copy */
	p = probeprov;
	this->p = strjoin("ab", "cd");
	printf("%s %s %c%c %s %s\n", s, stringof(q), p[0], p[5], stringof(p),
	    stringof(this->p));
	printf("%d %d\n", p == "dtrace", strlen(this->p));
	exit(0);
}
