/* An integer key and a pointer key do not mix (dt_node_is_argcompat). */
BEGIN
{
	a[1] = 1;
	a[curthread] = 2;
}
