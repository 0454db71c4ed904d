/* An unset string is "": 0 and NULL compare as the empty string, and
   assigning 0 to a string frees it as assigning "" does. */
#pragma D option quiet

BEGIN
{
	self->s = "abc";
	a["x"] = "def";
	printf("%d %d %d\n", self->s == NULL, self->s != 0, a["x"] == 0);
	self->s = 0;
	a["x"] = 0;
	printf("%d %d [%s] [%s]\n", self->s == NULL, 0 == a["x"], self->s, a["x"]);
	exit(0);
}
