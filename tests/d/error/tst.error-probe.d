/* A fault abandons its clause, reports it, and fires ERROR with arg1..arg5
   at once, before the next clause of the same firing runs; later clauses
   still run. */
#pragma D option quiet
BEGIN { x = 0; y = 1 / x; printf("not reached\n"); }
BEGIN { printf("next clause runs\n"); }
BEGIN { exit(0); }
ERROR { printf("ERROR: epid %d action %d fault %d\n", arg1, arg2, arg4); }
