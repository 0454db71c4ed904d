/*
 * What a built-in's pointer reaches is not writable (D_OP_WRITE): the
 * writable flag passes from a pointer to its target (dt_cook_op2), and a
 * built-in has none.
 */
BEGIN
{
	curthread->pid = 1;
}
