// A probe as the catalog holds it: its four-part name, its id, how its
// arguments are read from the BPF context, and what the provider needs to
// attach a program to it.
#pragma once

#include <linux/bpf.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bpf/attach.h"

namespace dtrace::providers {

class Provider;

// How the BPF program reads one probe argument from its context pointer.
struct ArgSource {
  enum class Kind {
    None,           // argument not available: reads as 0
    CtxField,       // load `size` bytes at ctx+offset (sign-extend if isSigned)
    SyscallReturn,  // syscall return value at ctx+offset: -4095..-1 means failure -> arg is -1
                    // and errno = -value (illumos semantics); otherwise the value and errno 0
    KernelPc,       // profile: the interrupted kernel PC, or 0 in user mode
    UserPc,         // profile: the interrupted user PC, or 0 in kernel mode
    FaultRecord,    // ERROR: the field at `offset` of the ir::FaultRecord being reported
    SyscallArg,     // syscall entry: ctx[0] is the caller's saved `struct pt_regs *`; read
                    // (bpf_probe_read_kernel) the low `size` bytes of the register at that
                    // offset, sign-extending if isSigned
    UserMemory,  // uprobes (ctx is the user's pt_regs): `size` bytes of user memory at the register
                 // at ctx+offset (none when offset < 0) + the register at ctx+indexOffset times
                 // scale (none when indexOffset < 0) + constant
    Constant,    // USDT: `constant`
    SiteValue,   // uprobes: the per-site value the attachment carries (a pid return
                 // probe's arg0: the offset of the return instruction in its function)
    CtxMember,   // raw tracepoints: `size` bytes at the pointer in ctx word `offset` plus
                 // the offsets of `members` (kernel memory, bpf_probe_read_kernel)
    ExitReason,  // proc:::exit: how the current task exited (CLD_EXITED, CLD_KILLED,
                 // CLD_DUMPED), from its exit_code
    ThreadLeader,   // 1 when the current thread is its process's first (tid == pid), else 0
    CurrentTask,    // the current thread's struct task_struct * (curthread)
    Recorded,       // word `offset` of the thread's record (Probe::threadRecordFd), 0 without one;
                    // with a `constant` mask, 1 when the word has any of its bits set, else 0
    SinceRecorded,  // nanoseconds since the thread's record was written; 0 without one
  } kind = Kind::None;
  int16_t offset = 0;
  uint8_t size = 8;
  bool isSigned = false;
  int16_t indexOffset = -1;
  uint8_t scale = 1;
  int64_t constant = 0;
  // CtxMember: (struct, member) pairs from BTF whose offsets add up, an
  // embedded struct's member after the member that holds it.
  std::vector<std::pair<std::string, std::string>> members{};
  bool negate = false;   // the value read, negated (an errno from a -errno return)
  std::string typeName;  // native C type for args[N] and `dtrace -lv`, e.g. "char *", "size_t"
  // The type args[N] has when a translator presents the native argument
  // (psinfo_t * for a struct task_struct *); empty when args[N] is native.
  std::string translatedType{};
  // The native argument args[N] is translated from, when not argN (a USDT
  // definition may reorder them: `probe p(int a, char *b) : (string b)`).
  int translatedFrom = -1;
  // The native argument is a user-space address: stringof() of it reads
  // user memory (as copyinstr() does), not kernel memory.
  bool userAddress = false;
};

// A condition on the firing of a probe carried by a kernel tracepoint that
// it shares with other probes (proc:::create and lwp-create both fire on
// task_newtask): the probe fires when `value` passes the test.
struct ProbeGuard {
  enum class Test {
    Equal,
    NotEqual,
    Negative,
    Positive,
    AnyBitSet,
    NoBitSet,
    OneOf
  } test = Test::Equal;
  ArgSource value;
  std::vector<int64_t> operands;  // one, or OneOf's list
  // Equal: compared with this kernel function's address instead, looked up
  // when the program is compiled.
  std::string symbol{};
};

enum class AttachKind {
  Tracepoint,
  PerfEvent,
  Uprobe,
  SyscallDispatch,  // syscall: a tail call from the provider's raw-tracepoint dispatcher
  Timer,            // tick-N: run (BPF_PROG_RUN) by a timer thread
  Consumer,         // BEGIN/END/ERROR: run (BPF_PROG_RUN) by the consumer itself
};

struct Probe {
  uint32_t id = 0;
  std::string provider, module, function, name;
  // RAW_TRACEPOINT (syscall, tick-N, BEGIN/END/ERROR), PERF_EVENT (profile-N), KPROBE (uprobes)
  bpf_prog_type progType = BPF_PROG_TYPE_UNSPEC;
  AttachKind attachKind = AttachKind::Tracepoint;
  std::vector<ArgSource> args;  // filled by Provider::describeArgs (lazily)
  // When sites read the arguments differently (a USDT probe whose sites
  // the compiler gave different registers), each site's cookie carries in
  // its high 32 bits the index of its way here; args is argVariants[0].
  std::vector<std::vector<ArgSource>> argVariants;
  bool argsDescribed = false;
  std::vector<ProbeGuard> guards;  // all must pass for the probe to fire
  // The context word holding the task the probe fires for, when not the
  // current one (sched:::on-cpu, from sched_switch before the switch): its
  // pid, tid, execname, curthread and self-> variables; -1: current.
  int contextTaskWord = -1;
  // Probes on one kernel event fire in ascending order of this, whatever
  // the order of their clauses, as DTrace's fire from the points the event
  // stands for (sched:::off-cpu before on-cpu at one switch).
  int eventOrder = 0;
  // The task-storage map of the record an earlier point of the thread
  // wrote for this probe (providers/thread_record.h); -1: none.
  int threadRecordFd = -1;
  Provider* owner = nullptr;
  // Provider-private data: tracepoint category/event whose format file types
  // the arguments and system call number (syscall), firing interval
  // (profile), whether it fires on every CPU (profile-N) or one (tick-N).
  std::string tpCategory, tpEvent;
  int syscallNumber = -1;
  uint64_t periodNs = 0;
  bool perCpu = false;
  // uprobe-based probes (pid, USDT): the object the sites are in, as a
  // path the kernel can open; the process traced (-1: every process that
  // maps the object); the sites. The sites' cookies hold the per-site value
  // (SiteValue) in their high 32 bits; the low 32 are the probe's index in
  // the group of probes its program serves.
  std::string objectPath;
  // The probe fires on a function's first instruction, before it pushes
  // a frame pointer: a user stack unwound by frame pointers lacks the
  // caller, whose return address is at the stack pointer.
  bool atFunctionEntry = false;
  std::string mappedPath;     // the object's path as the process maps it
  bool inExecutable = false;  // the object is the process's executable ("a.out")
  int targetPid = -1;
  std::vector<bpf::UprobeSite> sites;
  // Probes of one provider with equal keys read their arguments alike, so
  // that one program can serve them all (Provider::sharesPrograms).
  std::string argumentsKey;
};

}  // namespace dtrace::providers
