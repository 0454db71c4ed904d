/* A member the translator does not define cannot be translated. */
struct o {
	int a;
	int b;
};

translator struct o < int x > {
	a = x;
};

BEGIN
{
	trace(xlate <struct o> (1).b);
}
