/*
 * Integer keys print by their size (one and two bytes unsigned, as DTrace
 * prints them) and sort as unsigned numbers; a key keeps the type of its
 * first use, so a wider later key lands in the same tuple.
 */
#pragma D option quiet
#pragma D option aggsortkey
BEGIN
{
	@narrow[(char)-2] = count(); @narrow[(char)1] = count();
	@wide[-2] = count(); @wide[1] = count();
	@first[(int)7, 2] = count(); @first[(long long)7, 2] = count();
	exit(0);
}
