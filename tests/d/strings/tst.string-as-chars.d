/*
 * A string variable's characters are an array of char (Oracle's DTrace, as
 * DTraceToolkit's j_classflow.d uses them; illumos refuses a string operand
 * of + and so s[i]): s[i] reads and writes them in place, in every kind of
 * variable; *s and *(s + i) read one; s + i is the string from character i.
 */
#pragma D option quiet

BEGIN
{
	s = "hello";
	this->t = "abc";
	self->u = "xyz";
	a[1] = "def";
	s[1] = 'a';
	this->t[0] = 88;
	self->u[2] = 33;
	a[1][1] = 46;
	printf("%s %s %s %s %c %c %s %s\n", s, this->t, self->u, a[1], *s, *(s + 4), s + 2,
	    1 + s);
	i = 3;
	s[i] = 'L';
	printf("%s %c %d\n", s, s[i], s[200]);
	x = stringof(curpsinfo->pr_fname);
	x[0] = 'D';
	x[strlen(x) - 1] = 0;
	printf("%s %c\n", x, execname[1]);
	exit(0);
}
