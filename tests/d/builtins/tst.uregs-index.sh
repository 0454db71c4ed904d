# uregs[] takes a run-time index, as in illumos: the same register as the
# constant index; an index naming no register is an illegal operation.
$DTRACE -q -c "$WORKLOADS/getppid 1" -n '
syscall::getppid:entry /pid == $target/
{
	i = R_PC;
	j = R_RDI;
	printf("%d %d\n", uregs[i] == uregs[R_PC], uregs[j] == uregs[R_RDI]);
}
syscall::getppid:entry /pid == $target/ { k = 99; trace(uregs[k]); }
ERROR { printf("fault %d\n", arg4); }' 2>/dev/null
