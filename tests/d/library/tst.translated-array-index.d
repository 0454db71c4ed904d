/*
 * An element of a translated array member (curpsinfo->pr_fname[i]) is read
 * from what the translator's expression for the member names.
 */
#pragma D option quiet

BEGIN
{
	i = 2;
	printf("%c%c%c %d\n", curpsinfo->pr_fname[0], curlwpsinfo->pr_name[1],
	    curpsinfo->pr_fname[i], curpsinfo->pr_fname[0] == execname[0]);
	exit(0);
}
