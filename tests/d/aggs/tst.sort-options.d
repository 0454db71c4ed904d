/*
 * The order of aggregation entries: by value, then key (DTrace's default);
 * aggsortkey sorts by key; aggsortkeypos picks the key compared first;
 * aggsortrev reverses; setopt() changes them between printa()s.
 */
#pragma D option quiet
BEGIN
{
	@[3, "c"] = sum(10); @[1, "b"] = sum(30); @[2, "a"] = sum(20); @[4, "a"] = sum(20);
	printf("by value:");
	printa(@);
	setopt("aggsortkey");
	printf("by key:");
	printa(@);
	setopt("aggsortkeypos", "1");
	printf("by the second key:");
	printa(@);
	setopt("aggsortrev");
	printf("reversed:");
	printa(@);
	setopt("aggsortkey", "false");
	setopt("aggsortkeypos", "0");
	printf("by value, reversed:");
	printa(@);
	exit(0);
}
