/* Constant 0 goes with any pointer, arrays with pointers to their element
   type, and an array is passed where a void * is expected. */
#pragma D option quiet

BEGIN
{
	this->t = 1 ? curthread : 0;
	this->n = 0 ? curthread : 0;
	printf("%d %d\n", this->t == curthread, this->n == 0);
	this->c = (char *)curthread->comm;
	printf("%d %d\n", this->c == curthread->comm, curthread->comm != 0);
	this->a = alloca(16);
	bcopy(curthread->comm, this->a, 16);
	printf("%s\n", stringof((char *)this->a));
	this->p = (int *)alloca(8);
	this->p = 0;
	printf("%d\n", this->p == NULL);
	exit(0);
}
