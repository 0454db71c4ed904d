/* Enumerators are integer constants; unnamed values count on from the last. */
#pragma D option quiet

enum color { RED, GREEN = 5, BLUE, PURPLE = -2, PINK };
enum color c;

BEGIN
{
	c = BLUE;
	printf("%d %d %d %d %d\n", RED, GREEN, BLUE, PURPLE, PINK);
	printf("%d %d\n", c, c == BLUE);
	printf("%d\n", sizeof (enum color));
	exit(0);
}
