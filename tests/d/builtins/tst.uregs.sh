# uregs[] holds the registers the thread entered the kernel with, and
# ucaller is the return address of the user function that made the call
# (it keeps a frame pointer): the workload prints both for comparison.
out=$($DTRACE -q -c "$WORKLOADS/uregs" -n '
syscall::getppid:entry /pid == $target/
{
	printf("traced %x %x\n", uregs[R_PC], ucaller);
	printf("rdi %x %x r8 %x rax %d\n", uregs[R_RDI], uregs[R_EDI], uregs[R_R8], (long)uregs[R_RAX]);
	printf("R_PC aliases %d\n", uregs[R_PC] == uregs[R_RIP] && uregs[R_PC] == uregs[R_EIP]);
	printf("R_SP aliases %d\n", uregs[R_SP] == uregs[R_RSP] && uregs[R_SP] == uregs[R_UESP]);
	printf("ustackdepth %d\n", ustackdepth >= 2 && ustackdepth <= 127);
}
syscall::getppid:return /pid == $target/
{
	printf("return value %d\n", uregs[R_RAX] == ppid && uregs[R_R0] == uregs[R_RAX]);
}')
echo "$out" | grep -v '^traced \|^pc \|^$'
workload=$(echo "$out" | awk '$1 == "pc" { print $2, $4 }')
traced=$(echo "$out" | awk '$1 == "traced" { print $2, $3 }')
if [ -n "$workload" ] && [ "$workload" = "$traced" ]; then
	echo "uregs[R_PC] and ucaller match the workload"
else
	echo "workload: $workload traced: $traced"
fi
