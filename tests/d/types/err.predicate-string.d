/* A predicate is an integer, enum or pointer (dt_node_is_scalar): a string is refused. */
BEGIN
/execname/
{
	exit(0);
}
