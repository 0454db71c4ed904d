/*
 * An associative array's first use fixes its keys' types: a later key of
 * another integer type is converted to it (illumos's dt_cg_arglist casts
 * each key to the signature), so 0xffffffff finds the element -1 made in
 * an int key. A char array key is a string (dt_node_is_strcompat).
 */
#pragma D option quiet

BEGIN
{
	a[(int)-1] = 7;
	m[curthread->comm] = 3;
	printf("%d %d %d\n", a[0xffffffffLL], m[execname], m[curpsinfo->pr_fname]);
	exit(0);
}
