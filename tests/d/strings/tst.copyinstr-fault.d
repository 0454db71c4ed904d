/* An unreadable address is an "invalid address" fault: ERROR sees it. */
#pragma D option quiet

BEGIN { printf("%s\n", copyinstr(16)); }
ERROR { printf("fault %d address %d\n", arg4, arg5); exit(0); }
