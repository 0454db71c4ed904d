/*
 * strtok(NULL, ...) with no string from an earlier strtok() in this firing
 * faults as in illumos (an invalid address, 0); going on after the last
 * token, or from an empty string, gives NULL (compared, not printed).
 */
#pragma D option quiet

BEGIN { trace(strtok(NULL, "!")); exit(1); }
ERROR { printf("fault %d address %d\n", arg4, arg5); }
BEGIN { x = strtok("a,b", ","); printf("[%s] [%s] %d\n", x, strtok(NULL, ","), strtok(NULL, ",") == NULL); }
BEGIN { printf("%d %d\n", strtok("", ",") == NULL, strtok(NULL, ",") == NULL); exit(0); }
