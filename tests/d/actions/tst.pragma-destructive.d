/* #pragma D option destructive allows destructive actions, as -w does. */
#pragma D option destructive
#pragma D option quiet

BEGIN
{
	printf("before\n");
	system("echo %s %d", "from system", 42);
	printf("after\n");
	exit(0);
}
