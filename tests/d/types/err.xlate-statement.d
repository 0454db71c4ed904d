/*
 * A statement is compiled on its own: its value may not be a translated
 * pointer (illumos's dt_cg: D_CG_DYN).
 */
BEGIN
{
	xlate <psinfo_t *> (curthread);
}
