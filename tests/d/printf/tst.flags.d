/* Flags, widths and precisions, fixed and taken from arguments ("*"). */
#pragma D option quiet
BEGIN
{
	printf("[%5d] [%-5d] [%05d] [%+d] [% d] [%+5d] [%-+5d]\n", 42, 42, 42, 42, 42, 42, 42);
	printf("[%#x] [%#o] [%#X] [%08.3x] [%.4d] [%-8.3d]\n", 255, 8, 255, 10, 7, 7);
	printf("[%10s] [%-10s] [%.2s] [%10.2s] [%-*s] [%*s]\n", "abc", "abc", "abcdef", "abcdef", 6, "ab", -6, "ab");
	printf("[%*d] [%.*d] [%*.*d] [%-*d]\n", 6, 1, 3, 2, 6, 3, 3, 4, 5);
	printf("[%?p] [%'d]\n", 0x1234, 1234567);
	printf("[%c%c] [%3c] [%-3c]\n", 'o', 'k', 'x', 'y');
	exit(0);
}
