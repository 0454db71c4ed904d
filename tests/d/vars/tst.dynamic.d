/* Associative arrays with mixed keys and thread-locals: unset reads 0 (a string compares
   equal to ""), 0 deletes. */
#pragma D option quiet
BEGIN
{
	a["x"] = 1; a["y"] = 2; a["x"] += 10;
	b[1, "one"] = "first"; b[2, "two"] = "second";
	self->t = 42; self->s = "thread";
	printf("%d %d %d\n", a["x"], a["y"], a["nope"]);
	printf("%s %s %d\n", b[1, "one"], b[2, "two"], b[3, "three"] == "");
	printf("%d %s\n", self->t, self->s);
	self->t = 0; a["x"] = 0;
	printf("%d %d\n", self->t, a["x"]);
	n[a["y"]]++; n[a["y"]]++;
	printf("%d\n", n[2]);
	exit(0);
}
