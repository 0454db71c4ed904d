/*
 * The uregs[] index constants of illumos' regs.d for amd64 (the 32-bit
 * names, the 64-bit ones from 19, the common aliases, and R_FP), and ipl,
 * which is always 0 on Linux.
 */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d %d %d %d\n", R_GS, R_FS, R_ES, R_DS, R_EDI, R_ESI, R_EBP, R_ESP);
	printf("%d %d %d %d %d %d %d %d\n", R_EBX, R_EDX, R_ECX, R_EAX, R_TRAPNO, R_ERR, R_EIP, R_CS);
	printf("%d %d %d\n", R_EFL, R_UESP, R_SS);
	printf("%d %d %d %d %d %d\n", R_PC, R_SP, R_PS, R_R0, R_R1, R_FP);
	printf("%d %d %d %d %d %d %d %d\n", R_R15, R_R14, R_R13, R_R12, R_R11, R_R10, R_R9, R_R8);
	printf("%d %d %d %d %d %d %d\n", R_RDI, R_RSI, R_RBP, R_RBX, R_RDX, R_RCX, R_RAX);
	printf("%d %d %d\n", R_RIP, R_RFL, R_RSP);
	printf("ipl %d\n", ipl);
	exit(0);
}
