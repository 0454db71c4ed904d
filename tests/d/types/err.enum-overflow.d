/* Enumerators are ints. */
enum big {
	SMALL = 1,
	A = 2147483648
};
