/*
 * An unset thread-local string is DTrace's NULL string: 0 and NULL compare
 * equal to it and to "", assigning 0 (or NULL) frees it, and reading its
 * characters (printing it, a subroutine's argument) is an invalid address
 * fault. Assigning "" stores the empty string, which prints. A missing
 * associative array element reads as an empty string, as illumos's
 * dt_cg_assoc_op gives it a zero-filled element, and copies as one.
 */
#pragma D option quiet

BEGIN
{
	self->s = "abc";
	a["x"] = "def";
	printf("%d %d %d\n", self->s == NULL, self->s != 0, a["x"] == 0);
	self->s = 0;
	a["x"] = NULL;
	printf("%d %d %d %d\n", self->s == NULL, 0 == a["x"], self->s == "", a["x"] != "");
	self->e = "";
	printf("[%s] %d\n", self->e, self->e == NULL);
	copy = a["x"];
	printf("%d\n", copy == "");
}

BEGIN
{
	printf("[%s]\n", copy);
}

BEGIN
{
	printf("[%s]\n", self->s);
}

BEGIN
{
	trace(strlen(a["x"]));
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault %d at %d\n", arg4, arg5);
}
