/*
 * Declarations illumos accepts: externs (no storage, even when huge or of
 * unknown size), a trailing flexible array member, unnamed bit-fields, a
 * trailing comma among enumerators, a struct cast to its own type.
 */
#pragma D option quiet

extern int a1[];
extern int a4[123][456][789];
extern int a5[5], a6[6][6];

struct flex {
	uint64_t len;
	uint64_t data[];
};

struct bits {
	int a;
	int :3;
	int :4;
	int b;
};

enum trailing { T0, T1 = 4, };

struct flex f;

BEGIN
{
	f.len = 7;
	printf("%d %d %d\n", sizeof (struct flex), offsetof(struct flex, data),
	    sizeof (struct bits));
	printf("%d %d\n", T1, ((struct flex)f).len);
	exit(0);
}
