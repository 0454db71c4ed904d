/*
 * strtok(): a NULL (0) first argument goes on with the string of the previous
 * call, in later clauses of the same firing too (not in later firings); no
 * token left is NULL.
 */
#pragma D option quiet

BEGIN
{
	this->str = ",,,Carrots,,Barley,Oatmeal,,,Beans,";
	printf("[%s]", strtok(this->str, ","));
	printf("[%s]", strtok(0, ","));
}

BEGIN
{
	printf("[%s]", strtok(0, ","));
	printf("[%s]", strtok(0, ","));
	printf(" %d\n", strtok(0, ",") == NULL);
}

BEGIN
{
	printf("[%s] [%s] %d\n", strtok("foobar", "o"), strtok(0, "o"), strtok(0, "o") == NULL);
	printf("[%s] [%s] [%s]\n", strtok("a b\tc", " \t"), strtok(0, "\t"), strtok(0, "\t"));
	printf("%d [%s] %d\n", strtok("", "") == NULL, strtok("foo", ""), strtok(",,,", ",") == NULL);
	exit(0);
}
