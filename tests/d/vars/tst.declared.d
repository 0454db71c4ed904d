/* Declared dynamic variables keep their declared types. */
#pragma D option quiet

self int depth;
unsigned char small[int];
string names[int, int];

BEGIN
{
	self->depth = 3;
	small[1] = 300;
	names[1, 2] = "one-two";
	printf("%d %d %s\n", self->depth, small[1], names[1, 2]);
	exit(0);
}
