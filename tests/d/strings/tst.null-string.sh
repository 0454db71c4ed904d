# A global or clause-local string variable set to NULL holds DTrace's NULL
# string: compared, it is ""; read, it faults at address 0, and s[i] at
# address i; copied, the copy is NULL too (an element of a dynamic
# variable is freed); assigned a string again, it holds that string.
err=$(mktemp)
trap 'rm -f "$err"' EXIT
$DTRACE -qs /dev/stdin 2>"$err" <<'D'
string g, h;
this string l;
self string unset;

BEGIN
{
	g = "set";
	g = NULL;
	this->l = NULL;
	printf("%d %d %d\n", g == "", this->l == "", g != "x");
}
BEGIN { printf("%s\n", g); }
BEGIN { printf("%c\n", g[2]); }
BEGIN { printf("%d\n", strlen(this->l)); }
BEGIN { h = "x"; h = g; printf("%d\n", h == ""); }
BEGIN { printf("%s\n", h); }
BEGIN { h = "x"; h = self->unset; printf("%s\n", h); }
BEGIN { self->d = "x"; self->d = g; printf("%s\n", self->d); }
BEGIN { this->l = "again"; g = this->l; printf("%s %s %c\n", g, this->l, g[1]); }
BEGIN { exit(0); }
D
# The offsets in the program are the compiler's business.
sed 's/ at DIF offset [0-9]*$//' "$err"
