/* Unions share storage; bit-fields read back with their own width and
   signedness. Each bit-field takes the smallest unit that holds it, from
   the next byte on (illumos' CTF layout): struct flags is 1 + 1 + 1 + pad
   + 4 bytes. */
#pragma D option quiet

union u {
	uint32_t word;
	uint8_t bytes[4];
};

struct flags {
	unsigned int a : 3;
	unsigned int b : 5;
	int c : 4;
	unsigned int d : 20;
};

union u x;
struct flags f;

BEGIN
{
	x.word = 0x11223344;
	f.a = 5;
	f.b = 31;
	f.c = -3;
	f.d = 0xfffff;
	f.a++;
	printf("%d %d\n", sizeof (union u), sizeof (struct flags));
	printf("%x\n", x.word);
	printf("%d %d %d %x\n", f.a, f.b, f.c, f.d);
	f.b = 0;
	printf("%d %d %d %x\n", f.a, f.b, f.c, f.d);
	exit(0);
}
