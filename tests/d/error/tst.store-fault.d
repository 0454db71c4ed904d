/* Stores through a pointer outside alloca'd scratch memory are invalid
   address faults at run time, like every other bad access: the clause is
   abandoned, ERROR fires, and the rest of the script runs. */
#pragma D option quiet
BEGIN { this->p = curthread; this->p->pid = 1; printf("not reached\n"); }
BEGIN { this->q = (int *)0; *this->q = 5; printf("not reached\n"); }
BEGIN { printf("later clauses run\n"); exit(0); }
ERROR { printf("ERROR: action %d fault %d address %s\n", arg2, arg4, arg5 == 0 ? "0" : "kernel"); }
