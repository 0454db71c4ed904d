# uregs[] takes an integer constant (illumos dt_idcook_regs); a constant
# past the registers compiles and is an illegal operation at run time, as
# illumos's dtrace_getreg decides.
$DTRACE -q -c "$WORKLOADS/getppid 1" -n '
syscall::getppid:entry /pid == $target/ { printf("%d\n", uregs[R_PC] != 0); }
syscall::getppid:entry /pid == $target/ { trace(uregs[99]); }
ERROR { printf("fault %d\n", arg4); }' 2>/dev/null
