/* printf's common conversions with widths, precisions and flags. */
#pragma D option quiet

BEGIN
{
	printf("%d %i %u %x %X %o\n", -42, 42, 42, 255, 255, 8);
	printf("[%5d] [%-5d] [%05d] [%+d]\n", 42, 42, 42, 42);
	printf("[%s] [%10s] [%-10s] [%.2s]\n", "dtrace", "abc", "abc", "abcdef");
	printf("%c%c%c\n", 'o', 'k', '!');
	printf("%#x %#o %%\n", 255, 8);
	printf("%d %s\n", 6 * 7, "ok");
	exit(0);
}
