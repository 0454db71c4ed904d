/* x /= 0 is refused when compiled, as x / 0 is (dt_node_op2: D_DIV_ZERO). */
BEGIN
{
	x = 4;
	x /= 0;
}
