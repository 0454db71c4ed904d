/* The floor under any syscall probe: an (almost) empty eBPF program on the
 * sys_enter raw tracepoint, which every system call then runs.
 *   raw_tp_floor [-n NR] command [args...]
 * Loads the program (with -n, it returns at once unless the system call is
 * number NR, as a syscall dispatcher's early-out does), attaches it, runs
 * the command and waits for it. Plain bpf(2), no library. */
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static long bpf(int cmd, union bpf_attr* attr) {
  return syscall(SYS_bpf, cmd, attr, sizeof(*attr));
}

int main(int argc, char** argv) {
  int first = 1;
  long nr = -1;
  if (argc > 2 && strcmp(argv[1], "-n") == 0) {
    nr = strtol(argv[2], NULL, 10);
    first = 3;
  }
  if (first >= argc) {
    fprintf(stderr, "usage: raw_tp_floor [-n NR] command [args...]\n");
    return 2;
  }
  struct bpf_insn insns[] = {
      /* r2 = ctx->args[1] (the system call number); if r2 != NR goto out */
      {.code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = 2, .src_reg = 1, .off = 8},
      {.code = BPF_JMP | BPF_JNE | BPF_K, .dst_reg = 2, .off = 0, .imm = (int32_t)nr},
      {.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0},
      {.code = BPF_JMP | BPF_EXIT},
  };
  union bpf_attr attr;
  memset(&attr, 0, sizeof(attr));
  attr.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
  attr.insns = (uintptr_t)(nr < 0 ? insns + 2 : insns);
  attr.insn_cnt = nr < 0 ? 2 : 4;
  attr.license = (uintptr_t) "GPL";
  int prog = (int)bpf(BPF_PROG_LOAD, &attr);
  if (prog < 0) {
    perror("raw_tp_floor: BPF_PROG_LOAD");
    return 1;
  }
  memset(&attr, 0, sizeof(attr));
  attr.raw_tracepoint.name = (uintptr_t) "sys_enter";
  attr.raw_tracepoint.prog_fd = (uint32_t)prog;
  if (bpf(BPF_RAW_TRACEPOINT_OPEN, &attr) < 0) {
    perror("raw_tp_floor: BPF_RAW_TRACEPOINT_OPEN");
    return 1;
  }
  pid_t child = fork();
  if (child == 0) {
    execvp(argv[first], argv + first);
    perror("raw_tp_floor: exec");
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
