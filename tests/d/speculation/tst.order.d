/*
 * Records speculated by several clauses print in the order they were
 * recorded, where the commit() is: after what the principal buffer had
 * before it, before what comes after. A discarded speculation prints
 * nothing.
 */
#pragma D option quiet
#pragma D option nspec=2
BEGIN { a = speculation(); b = speculation(); printf("ids %d %d\n", a, b); }
BEGIN { speculate(a); printf("a first\n"); }
BEGIN { speculate(b); printf("b never\n"); }
BEGIN { printf("principal\n"); }
BEGIN { speculate(a); printf("a second\n"); }
BEGIN { discard(b); }
BEGIN { commit(a); }
BEGIN { printf("after the commit\n"); exit(0); }
