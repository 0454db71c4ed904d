/* if/else chooses which actions record; only those print. */
#pragma D option quiet

BEGIN
{
	x = 3;
	if (x > 2) {
		printf("big\n");
	} else {
		printf("small\n");
	}
	if (x == 0)
		printf("zero\n");
	else if (x == 3)
		printf("three\n");
	exit(0);
}
