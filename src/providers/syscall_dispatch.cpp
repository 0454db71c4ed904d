#include "providers/syscall_dispatch.h"

#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "bpf/assembler.h"
#include "types/readable_kernel_pointer.h"

namespace dtrace::providers {

using namespace bpf;

// r7 = the number of the system call sys_exit reports (it passes the
// return value, not the number): its pt_regs argument's orig_ax, a plain
// load through the pointer cast for loads. A kernel that cannot cast reads
// task_pt_regs(current) instead, and leaves current's task_struct in r8
// (returns true).
static bool exitingSyscallNumber(Assembler& a) {
  if (types::canCastForLoads("pt_regs")) {
    a.emit(ldx(Size::DW, R1, R6, 0));  // ctx[0]: struct pt_regs *
    types::castForLoads(a, "pt_regs");
    a.emit(ldx(Size::DW, R7, R0, syscallabi::kOrigAx));
    return false;
  }
  a.emit(call(BPF_FUNC_get_current_task_btf));
  a.emit(mov64(R8, R0));
  a.emit(mov64(R1, R0));
  a.emit(call(BPF_FUNC_task_pt_regs));
  a.emit(ldx(Size::DW, R7, R0, syscallabi::kOrigAx));
  return true;
}

// Every system call on the machine runs the dispatcher while any syscall
// probe of its direction is enabled through it, so it does no more than it
// must: the number, its bound, and the tail call, which falls through an
// empty slot in a few instructions. Whether the call is a native one is
// the probe program's own guard (syscallProbeGuard), paid only by the
// calls that are traced.
std::vector<Insn> syscallDispatcherProgram(SyscallDirection direction, int progArrayFd,
                                           int maxNumber) {
  Assembler a;
  Label out = a.newLabel();
  a.emit(mov64(R6, R1));  // ctx
  if (direction == SyscallDirection::Entry) {
    a.emit(ldx(Size::DW, R7, R6, 8));  // ctx[1]: the system call number
  } else {
    exitingSyscallNumber(a);
  }
  // Unsigned: -1 (no system call) and x32-style high bits fall out here.
  a.jumpIf(BPF_JGT, R7, maxNumber, out);
  a.emit(mov64(R1, R6));
  a.emit(ldMapFd(R2, progArrayFd));
  a.emit(mov64(R3, R7));
  a.emit(call(BPF_FUNC_tail_call));  // returns only if the slot is empty
  a.bind(out);
  a.emit(mov64(R0, 0));
  a.emit(exit());
  return a.finish().value();
}

void syscallProbeGuard(Assembler& a, SyscallDirection direction, int number, Label skip,
                       bool trustedTask) {
  a.emit(mov64(R6, R1));  // ctx
  bool haveTask = false;
  if (direction == SyscallDirection::Entry) {
    a.emit(ldx(Size::DW, R7, R6, 8));  // ctx[1]: the system call number
  } else {
    haveTask = exitingSyscallNumber(a);
  }
  a.jumpIf(BPF_JNE, R7, number, skip);
  if (!haveTask) {
    if (trustedTask) {
      a.emit(call(BPF_FUNC_get_current_task_btf));
    } else {
      types::currentTaskForLoads(a);
    }
    a.emit(mov64(R8, R0));
  }
  // An ia32 system call numbers its calls differently: ftrace's syscall
  // events skip them, and so do we (TS_COMPAT in current's thread_info).
  a.emit(ldx(Size::W, R1, R8, syscallabi::kThreadStatus));
  a.jumpIf(BPF_JSET, R1, syscallabi::kTsCompat, skip);
  a.emit(mov64(R1, R6));
}

const char* syscallTracepoint(SyscallDirection d) {
  return d == SyscallDirection::Entry ? "sys_enter" : "sys_exit";
}

namespace {

std::string errnoMessage(int err) { return strerror(err); }

}  // namespace

Fd SyscallDispatcher::currentLink() {
  if (!generation_) return Fd();
  // Our own references to the link are the callers' Links; the kernel
  // frees the link (and its id) once they are all closed.
  Fd fd = bpf::openLinkById(generation_->linkId);
  if (!fd) return fd;
  const std::optional<bpf::LinkIds> ids = bpf::linkIds(fd.get());
  if (!ids || ids->program != generation_->programId) {
    return Fd();  // the id was reused by someone else's link
  }
  return fd;
}

bool SyscallDispatcher::attached() { return currentLink().valid(); }

Result<SyscallDispatcher::Generation> SyscallDispatcher::startGeneration(Fd& link) {
  const std::string name = std::string("dt_") + syscallTracepoint(direction_);
  Result<bpf::Map> array =
      bpf::Map::create(BPF_MAP_TYPE_PROG_ARRAY, name, 4, 4, static_cast<uint32_t>(maxNumber_) + 1);
  if (!array) return array.error();
  const std::vector<Insn> insns = syscallDispatcherProgram(direction_, array->fd(), maxNumber_);
  Result<bpf::Program> program = bpf::Program::load(BPF_PROG_TYPE_RAW_TRACEPOINT, name, insns);
  if (!program) {
    return Error{"failed to load the syscall dispatcher: " + program.error().message};
  }
  Result<bpf::Link> attached =
      bpf::attachRawTracepoint(program->fd(), syscallTracepoint(direction_));
  if (!attached) return attached.error();
  link.reset(fcntl(attached->bpfLinkFd(), F_DUPFD_CLOEXEC, 0));
  if (!link) return Error{"cannot duplicate the syscall dispatcher link: " + errnoMessage(errno)};
  const std::optional<bpf::LinkIds> ids = bpf::linkIds(link.get());
  if (!ids) return Error{"cannot identify the syscall dispatcher link: " + errnoMessage(errno)};
  return Generation{std::move(*array), std::move(*program), ids->program, ids->link};
}

Result<Fd> SyscallDispatcher::liveLink() {
  Fd link = currentLink();
  if (link) return link;
  // Every Link of the previous generation is gone. Dropping our reference
  // to its program array lets the kernel clear the array, so nothing it
  // held can fire again.
  generation_.reset();
  Result<Generation> next = startGeneration(link);
  if (!next) return next.error();
  generation_.emplace(std::move(*next));
  return link;
}

Result<bpf::Link> SyscallDispatcher::attach(int number, int progFd) {
  if (number < 0 || number > maxNumber_) {
    return Error{"system call number " + std::to_string(number) + " out of range"};
  }
  Result<Fd> link = liveLink();
  if (!link) return link.error();
  const uint32_t key = static_cast<uint32_t>(number);
  const uint32_t value = static_cast<uint32_t>(progFd);
  Result<void> r = generation_->progArray.update(&key, &value);
  if (!r)
    return Error{"failed to enable the program for system call " + std::to_string(number) + ": " +
                 r.error().message};
  return bpf::Link(Fd(), std::move(*link));
}

}  // namespace dtrace::providers
