# -S lists the variables each clause uses: scope, kind, how the clause uses
# them (r, w), their type as DIF describes it, and their offsets: a scalar
# takes a word (it holds a whole register, as DIF's variables do), arrays
# and structs follow C's alignment (short[5] after a char at 8, a struct
# after an int at 8); a thread-local's value is alone in its map element.
# (The programs listed after the tables are left out.)
$DTRACE -Se -n '
char c;
short a[5];
this char lc;
this int li;
this struct { short u, v; } ls;
self char tc;
self long tl;

BEGIN
/c == 0/
{
	a[3] = 1;
	this->li = 2;
	this->ls.u = 3;
	self->tl++;
	n[probename] = timestamp;
	s = execname;
	@agg = count();
}

END
{
	trace(n["BEGIN"] + this->li);
}' 2>&1 | sed '/^Disassembly of program/,$d'
