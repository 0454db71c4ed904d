// Syscall probes on the raw tracepoints sys_enter and sys_exit. One
// dispatcher program per direction is attached to the raw tracepoint and
// tail-calls, through a BPF_MAP_TYPE_PROG_ARRAY indexed by system call
// number, into the program enabled for that call. A raw tracepoint attaches
// in well under a millisecond and detaches in ~0.3 ms, where a perf
// tracepoint costs ~70 ms per probe to detach: `syscall:::entry` enables
// every call at the price of one attachment.
//
// The first probe of a direction is attached to the raw tracepoint itself,
// without the dispatcher: its program checks its own number
// (syscallProbeGuard), and a probe firing saves the dispatcher's run and
// its tail call (an indirect jump, a retpoline on this kind of machine),
// while every other system call pays the same few instructions either way.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "bpf/assembler.h"
#include "bpf/attach.h"
#include "bpf/insn.h"
#include "bpf/map.h"
#include "bpf/program.h"
#include "util/result.h"

namespace dtrace::providers {

enum class SyscallDirection { Entry, Return };

// The raw tracepoint of a direction: sys_enter or sys_exit.
const char* syscallTracepoint(SyscallDirection direction);
// The direction a syscall probe's name ("entry" or "return") gives.
inline SyscallDirection syscallDirection(std::string_view probeName) {
  return probeName == "entry" ? SyscallDirection::Entry : SyscallDirection::Return;
}

// Offsets in x86-64 `struct pt_regs` and `struct thread_info` (the first
// member of task_struct) that the dispatchers read; stable kernel ABI.
namespace syscallabi {
inline constexpr int16_t kOrigAx = 120;       // pt_regs.orig_ax: the system call number
inline constexpr int16_t kThreadStatus = 16;  // thread_info.status
inline constexpr int32_t kTsCompat = 0x0002;  // TS_COMPAT: a 32-bit (ia32) system call
// The x86-64 system call argument registers, arg0..arg5: di si dx r10 r8 r9.
inline constexpr int16_t kArgRegisters[6] = {112, 104, 96, 56, 72, 64};
}  // namespace syscallabi

// The dispatcher's instructions. Its raw tracepoint context is
// (struct pt_regs *regs, long id) for sys_enter and (regs, long ret) for
// sys_exit, where the number comes from regs->orig_ax. Numbers above
// maxNumber are not dispatched; any other is tail-called, ia32 system
// calls too (whose numbers mean other calls): every syscall probe's
// program starts with syscallProbeGuard, which leaves them out.
std::vector<bpf::Insn> syscallDispatcherProgram(SyscallDirection direction, int progArrayFd,
                                                int maxNumber);

// The first instructions of a syscall probe's program: to `skip` unless
// the tracepoint fired for native system call `number`. So the program
// may run from the dispatcher or on the raw tracepoint itself. r1 (the
// context) is kept; r8 holds the current task: one helpers may take where
// `trustedTask` (bpf_get_current_task_btf, 15 ns dearer here), otherwise
// one only for loads (types/readable_kernel_pointer.h); r0, r2-r5, r6 and
// r7 are clobbered.
void syscallProbeGuard(bpf::Assembler& a, SyscallDirection direction, int number, bpf::Label skip,
                       bool trustedTask);

// The dispatcher of one direction, loaded and attached on first use.
//
// Every Link returned by attach() holds a reference to the dispatcher's
// raw-tracepoint link: the dispatcher detaches (and every syscall probe of
// that direction stops) as soon as the last of them is destroyed. A later
// attach() then starts afresh with a new, empty program array, so a probe
// whose links are gone never fires again. While other links of the same
// direction live, a probe's own entry stays in the array (a dtrace session
// drops all its links together).
class SyscallDispatcher {
 public:
  SyscallDispatcher(SyscallDirection direction, int maxNumber)
      : direction_(direction), maxNumber_(maxNumber) {}

  // Makes progFd (a BPF_PROG_TYPE_RAW_TRACEPOINT program) the handler of
  // system call `number`.
  Result<bpf::Link> attach(int number, int progFd);

  // Whether a dispatcher is attached right now (for tests).
  bool attached();

 private:
  struct Generation {
    bpf::Map progArray;
    bpf::Program program;
    uint32_t programId = 0;
    uint32_t linkId = 0;
  };

  // A new fd for the live dispatcher link, attaching a new generation if
  // every link of the previous one is gone.
  Result<Fd> liveLink();
  Fd currentLink();
  Result<Generation> startGeneration(Fd& link);

  SyscallDirection direction_;
  int maxNumber_;
  std::optional<Generation> generation_;
};

}  // namespace dtrace::providers
