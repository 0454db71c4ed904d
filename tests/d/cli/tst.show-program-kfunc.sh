# -S names kernel-function calls from the kernel's BTF, and shows a syscall
# return probe's guard: the number read from sys_exit's pt_regs cast for
# loads (bpf_rdonly_cast), compared before any helper runs, then the task
# for the ia32 check found the same way. The guard is what precedes the
# first clause.
$DTRACE -e -S -n 'syscall::getppid:return /0/ { }' 2>&1 |
  sed -n '/^Disassembly of program/,/^Disassembly of clause/p' |
  grep -E '^[0-9]+ .*(call|goto)' | head -4 |
  sed -E 's/^[0-9]+ [0-9]+: ([0-9a-f]+ ){4}[0-9a-f]+ +//; s/#[0-9]+$//; s/pc\+[0-9]+/pc+N/'
