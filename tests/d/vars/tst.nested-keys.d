/* Dynamic-variable reads nest in one another's keys as deep as a program
   writes them (illumos has no limit): each key is built in its own area. */
#pragma D option quiet
BEGIN
{
	f[1] = 2; e[2] = 3; d[3] = 4; c[4] = 5; b[5] = 6; a[6] = 7;
	self->s[7] = 8;
	printf("%d %d\n", a[b[c[d[e[f[1]]]]]], self->s[a[b[c[d[e[f[1]]]]]]]);
	a[b[c[d[e[f[1]]]]]]++;
	printf("%d\n", a[6]);
	exit(0);
}
