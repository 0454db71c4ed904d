/* C's floating types and the Solaris typedefs are known types; D itself
   does no floating-point arithmetic. */
#pragma D option quiet

float f;
double *dp;

BEGIN
{
	printf("%d %d %d %d\n", sizeof (float), sizeof (double), sizeof (long double), sizeof (f));
	dp = (double *)alloca(8);
	printf("%d\n", (char *)(dp + 1) - (char *)dp);
	printf("%d %d %d %d %d %d %d\n", sizeof (psetid_t), sizeof (zoneid_t), sizeof (taskid_t),
	    sizeof (projid_t), sizeof (major_t), sizeof (minor_t), sizeof (ipaddr_t));
	printf("%d %d %d\n", AF_INET, AF_INET6, sizeof (in6_addr_t));
	exit(0);
}
