/*
 * speculate() of ID 0 (speculation() failed, or none was taken) abandons
 * the rest of its clause, as DTrace does: nothing is recorded and nothing
 * after it runs. commit(0) and discard(0) do nothing.
 */
#pragma D option quiet
BEGIN { n = 0; }
BEGIN { speculate(0); n++; printf("not printed\n"); }
BEGIN { commit(0); discard(0); }
BEGIN { printf("n = %d\n", n); exit(0); }
