/*
 * NULL is the int 0, as illumos's NULL is once the compiler has folded it
 * (Sun's sizeof/tst.SizeofNULL.d), and it still compares with, converts to
 * and is stored into pointers.
 */
#pragma D option quiet

BEGIN
{
	printf("%d\n", sizeof (NULL));
	p = curthread;
	printf("%d %d\n", p == NULL, p != NULL);
	q = (int *)NULL;
	printf("%d\n", q == NULL);
	self->t = curthread;
	self->t = NULL;
	printf("%d\n", self->t == NULL);
	printf("%s\n", strtok("a,b", ","));
	printf("%s\n", strtok(NULL, ","));
	printf("%d\n", curthread->mm != NULL);
	exit(0);
}
