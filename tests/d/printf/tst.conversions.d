/* Every integer, string and character conversion, with each size prefix. */
#pragma D option quiet
BEGIN
{
	printf("[%d] [%i] [%u] [%o] [%x] [%X] [%c] [%s] [%%]\n", -42, -42, 42, 8, 255, 255, 65, "str");
	printf("[%hd] [%hi] [%hu] [%ho] [%hx] [%hX]\n", (short)-2, (short)-2, (ushort_t)65534, (ushort_t)8, (short)-2, (short)-2);
	printf("[%ld] [%li] [%lu] [%lo] [%lx] [%lX]\n", (long)-3, (long)-3, (ulong_t)3, (ulong_t)8, (long)-3, (long)-3);
	printf("[%lld] [%lli] [%llu] [%llo] [%llx] [%llX]\n", -4LL, -4LL, 4ULL, 8ULL, -4LL, -4LL);
	printf("[%hhd] [%hhu] [%hhx] [%hhX]\n", (char)-1, (unsigned char)255, (char)-1, (unsigned char)171);
	printf("[%p] [%p]\n", (void *)0x1234abcd, 0);
	printf("[%S] [%C]\n", "tab\there \"q\"\n", '\n');
	printf("[%lc] [%wc]\n", 65, 66);
	exit(0);
}
