typedef struct info { int a; } info_t;
BEGIN
{
	trace(xlate <info_t> ("x").a);
}
