/* A pointer to translated data is no key (dt_idcook_assc: D_KEY_TYPE). */
BEGIN
{
	a[curpsinfo] = 1;
}
