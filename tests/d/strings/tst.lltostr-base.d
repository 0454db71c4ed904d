/*
 * lltostr(n, base): digits in any base from 2 to 36, "0x" before base 16 and
 * "0" before base 8 (as illumos); outside base 10 a negative number is its
 * 64-bit two's complement. Any other base is an illegal operation.
 */
#pragma D option quiet

BEGIN
{
	printf("%s %s %s %s %s %s\n", lltostr(8, 8), lltostr(0, 16), lltostr(5, 2),
	    lltostr(255, 16), lltostr(0, 8), lltostr(0, 2));
	printf("%s %s %s %s %s\n", lltostr(35, 36), lltostr(100, 36), lltostr(-5, 10),
	    lltostr(42), lltostr(-9223372036854775807 - 1, 10));
	printf("%s %s\n", lltostr(-1, 16), lltostr(-8, 8));
	printf("%s\n", lltostr(-1, 2));
	b = 3;
	printf("%s %s\n", lltostr(-9223372036854775807 - 1, 16), lltostr(10, b));
}

BEGIN { trace(lltostr(1, 1)); }
BEGIN { b = 37; trace(lltostr(1, b)); }
BEGIN { trace(lltostr(1, -16)); }
ERROR { printf("fault %d\n", arg4); }
BEGIN { exit(0); }
