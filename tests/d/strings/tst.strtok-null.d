/*
 * strtok(NULL, ...) with no string from an earlier strtok() in this firing
 * faults as in illumos (an invalid address, 0); going on after the last
 * token, or from an empty string, gives "" without a fault.
 */
#pragma D option quiet

BEGIN { trace(strtok(NULL, "!")); exit(1); }
ERROR { printf("fault %d address %d\n", arg4, arg5); }
BEGIN { x = strtok("a,b", ","); printf("[%s] [%s] [%s]\n", x, strtok(NULL, ","), strtok(NULL, ",")); }
BEGIN { printf("[%s] [%s]\n", strtok("", ","), strtok(NULL, ",")); exit(0); }
