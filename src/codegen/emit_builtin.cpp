// Built-in variables: pid, execname, timestamp, arg0..arg9, args[],
// uregs[], ... read from helpers, the probe context and the current task.
// Stacks (caller, stackdepth) are in emit_builtin_stack.cpp, paths (cwd,
// root) in emit_builtin_path.cpp.
#include <csignal>

#include "bpf/task_storage.h"
#include "codegen/emitter.h"
#include "sema/symbols.h"
#include "sym/kernel_symbols.h"
#include "types/readable_kernel_pointer.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;
using sema::Builtin;

// r6 = the clock as first read in this probe firing: DTrace samples
// timestamp once per firing, so two reads (in one clause or in two) agree.
void ProgramEmitter::firingTimestamp() {
  Label known = as_.newLabel();
  as_.emit(ldx(Size::DW, R6, R10, kTimestampSlot));
  as_.jumpIf(BPF_JNE, R6, 0, known);
  as_.emit(call(BPF_FUNC_ktime_get_ns));
  as_.emit(mov64(R6, R0));
  as_.emit(stx(Size::DW, R10, kTimestampSlot, R6));
  as_.bind(known);
}

void ProgramEmitter::builtin(const sema::Variable& v) {
  switch (v.builtin) {
    case Builtin::Arg:
      probeArg(v.argIndex);
      return;
    case Builtin::Pid:
      contextPidTgid();
      as_.emit(mov64(R6, R0));
      as_.emit(alu64(BPF_RSH, R6, 32));
      return;
    case Builtin::Tid:
      contextPidTgid();
      as_.emit(mov32(R6, R0));
      return;
    case Builtin::Uid:
      contextUidGid();
      as_.emit(mov32(R6, R0));
      return;
    case Builtin::Gid:
      contextUidGid();
      as_.emit(mov64(R6, R0));
      as_.emit(alu64(BPF_RSH, R6, 32));
      return;
    case Builtin::Ppid:
      taskMember("real_parent.tgid", 4);
      return;
    case Builtin::Vtimestamp:
      threadCpuTime();
      return;
    case Builtin::Timestamp:
      firingTimestamp();
      return;
    case Builtin::Walltimestamp:
      firingTimestamp();
      as_.emit(ldMapValue(R1, maps_.globals, kWallClockOffset));
      as_.emit(ldx(Size::DW, R1, R1, 0));
      as_.emit(alu64(BPF_ADD, R6, R1));
      return;
    case Builtin::Cpu:
      as_.emit(call(BPF_FUNC_get_smp_processor_id));
      as_.emit(mov64(R6, R0));
      return;
    case Builtin::Curthread:
      contextTask();
      as_.emit(mov64(R6, R0));
      return;
    case Builtin::Errno: {
      // Only a syscall's return probe knows an error: -4095..-1 from the
      // kernel is errno negated. Elsewhere errno reads as 0.
      as_.emit(mov64(R6, 0));
      for (const auto& a : probe_->args) {
        if (a.kind != providers::ArgSource::Kind::SyscallReturn) continue;
        Label done = as_.newLabel();
        as_.emit(ldx(Size::DW, R1, R10, kCtxSlot));
        as_.emit(ldx(Size::DW, R1, R1, a.offset));
        as_.jumpIf(BPF_JSGE, R1, 0, done);
        as_.jumpIf(BPF_JSLT, R1, -4095, done);
        as_.emit(mov64(R6, R1));
        as_.emit(neg64(R6));
        as_.bind(done);
        break;
      }
      return;
    }
    case Builtin::Epid:
      if (identityAtRunTime()) {
        loadProbeEntry();
        as_.emit(ldx(Size::W, R6, R8,
                     static_cast<int16_t>(ProbeTableEntry(0).epidOffset(clausePosition_))));
        return;
      }
      constant(epid_);
      return;
    case Builtin::Id:
      if (identityAtRunTime()) {
        loadProbeEntry();
        as_.emit(ldx(Size::W, R6, R8, ProbeTableEntry::idOffset()));
        return;
      }
      constant(probe_->id);
      return;
    case Builtin::Ipl:
      constant(0);
      return;  // Linux has no interrupt priority levels
    case Builtin::Lgrp:
      as_.emit(call(BPF_FUNC_get_numa_node_id));
      as_.emit(mov64(R6, R0));
      return;
    case Builtin::RegIndex:
      constant(v.argIndex);
      return;
    case Builtin::Caller:
      stackFrame(false, 0);
      return;
    case Builtin::Ucaller:  // frame 0 is the user PC itself
      if (maps_.unwindProcesses >= 0) {
        userCallerByCfi();
      } else {
        stackFrame(true, 1);
      }
      return;
    case Builtin::Stackdepth:
      stackDepth(false);
      return;
    case Builtin::Ustackdepth:
      if (maps_.unwindProcesses >= 0) {
        userDepthByCfi();
      } else {
        stackDepth(true);
      }
      return;
    default:
      fail("built-in variable " + v.name + " has no integer value");
      return;
  }
}

void ProgramEmitter::probeArg(int index) {
  using Kind = providers::ArgSource::Kind;
  if (index >= static_cast<int>(probe_->args.size()) || probe_->args[index].kind == Kind::None) {
    as_.emit(mov64(R6, 0));
    return;
  }
  if (probe_->argVariants.size() > 1) {
    // The site's way of reading its arguments is in the cookie's high bits.
    Label done = as_.newLabel();
    for (size_t v = 0; v < probe_->argVariants.size(); v++) {
      Label next = as_.newLabel();
      as_.emit(ldx(Size::DW, R1, R10, kCookieSlot));
      as_.emit(alu64(BPF_RSH, R1, 32));
      as_.jumpIf(BPF_JNE, R1, static_cast<int32_t>(v), next);
      const auto& variant = probe_->argVariants[v];
      if (index < static_cast<int>(variant.size())) {
        probeArgFrom(variant[index]);
      } else {
        as_.emit(mov64(R6, 0));
      }
      as_.jump(done);
      as_.bind(next);
    }
    as_.emit(mov64(R6, 0));
    as_.bind(done);
    return;
  }
  probeArgFrom(probe_->args[index]);
}

// r6 = `size` bytes at the address in r3, of user or kernel memory (0
// when unreadable), sign-extended when `isSigned`.
void ProgramEmitter::readAtR3(bool user, uint8_t size, bool isSigned) {
  const int16_t slot = pushSlot();
  as_.emit(st(Size::DW, R10, slot, 0));
  as_.emit(mov64(R1, R10));
  as_.emit(alu64(BPF_ADD, R1, slot));
  as_.emit(mov64(R2, size));
  as_.emit(call(user ? BPF_FUNC_probe_read_user : BPF_FUNC_probe_read_kernel));
  as_.emit(ldx(sizeOf(size), R6, R10, slot));
  popSlot();
  if (isSigned && size < 8) normalize(R6, types_.integer(size, true));
}

void ProgramEmitter::probeGuards(Label skip) {
  using Test = providers::ProbeGuard::Test;
  for (const providers::ProbeGuard& g : probe_->guards) {
    probeArgFrom(g.value);
    const int32_t operand = g.operands.empty() ? 0 : static_cast<int32_t>(g.operands[0]);
    switch (g.test) {
      case Test::Equal:
        if (!g.symbol.empty()) {
          std::optional<sym::KernelSymbol> function = sym::KernelSymbols::get().find(g.symbol);
          if (!function) {
            fail("kernel function " + g.symbol + " not found in /proc/kallsyms");
            return;
          }
          as_.emit(ldImm64(R1, function->address));
          as_.jumpIf(BPF_JNE, R6, R1, skip);
          break;
        }
        as_.jumpIf(BPF_JNE, R6, operand, skip);
        break;
      case Test::NotEqual:
        as_.jumpIf(BPF_JEQ, R6, operand, skip);
        break;
      case Test::Negative:
        as_.jumpIf(BPF_JSGE, R6, 0, skip);
        break;
      case Test::Positive:
        as_.jumpIf(BPF_JSLE, R6, 0, skip);
        break;
      case Test::AnyBitSet:
        as_.emit(alu64(BPF_AND, R6, operand));
        as_.jumpIf(BPF_JEQ, R6, 0, skip);
        break;
      case Test::NoBitSet:
        as_.emit(alu64(BPF_AND, R6, operand));
        as_.jumpIf(BPF_JNE, R6, 0, skip);
        break;
      case Test::OneOf: {
        Label passed = as_.newLabel();
        for (int64_t v : g.operands) as_.jumpIf(BPF_JEQ, R6, static_cast<int32_t>(v), passed);
        as_.jump(skip);
        as_.bind(passed);
        break;
      }
    }
  }
}

void ProgramEmitter::probeArgFrom(const providers::ArgSource& a) {
  probeArgRead(a);
  if (a.negate) as_.emit(alu64(BPF_NEG, R6, 0));
}

void ProgramEmitter::probeArgRead(const providers::ArgSource& a) {
  using Kind = providers::ArgSource::Kind;
  as_.emit(ldx(Size::DW, R1, R10, kCtxSlot));
  switch (a.kind) {
    case Kind::FaultRecord:
      as_.emit(
          ldx(sizeOf(a.size), R6, R9,
              static_cast<int16_t>(layout_.faultOffset + sizeof(ir::RecordHeader) + a.offset)));
      return;
    case Kind::CtxField:
      as_.emit(ldx(sizeOf(a.size), R6, R1, a.offset));
      if (a.isSigned && a.size < 8) normalize(R6, types_.integer(a.size, true));
      return;
    case Kind::SyscallReturn: {
      Label done = as_.newLabel();
      as_.emit(ldx(Size::DW, R6, R1, a.offset));
      as_.jumpIf(BPF_JSGE, R6, 0, done);
      as_.jumpIf(BPF_JSLT, R6, -4095, done);
      as_.emit(mov64(R6, -1));
      as_.bind(done);
      return;
    }
    case Kind::KernelPc:
    case Kind::UserPc: {
      // bpf_perf_event_data starts with the interrupted pt_regs.
      constexpr int16_t kIp = 16 * 8, kCs = 17 * 8;
      Label done = as_.newLabel();
      as_.emit(ldx(Size::DW, R2, R1, kCs));
      as_.emit(alu64(BPF_AND, R2, 3));
      as_.emit(ldx(Size::DW, R6, R1, kIp));
      as_.jumpIf(a.kind == Kind::KernelPc ? BPF_JEQ : BPF_JNE, R2, 0, done);
      as_.emit(mov64(R6, 0));
      as_.bind(done);
      return;
    }
    case Kind::SyscallArg: {
      // A raw sys_enter tracepoint passes the saved user registers: ctx[0]
      // is the pt_regs pointer and the argument register sits at `offset`.
      as_.emit(ldx(Size::DW, R3, R1, 0));
      as_.emit(alu64(BPF_ADD, R3, a.offset));
      readAtR3(false, 8, false);
      return;  // the whole register, as DTrace's argN; args[n] takes the C type
    }
    case Kind::SiteValue:
      as_.emit(ldx(Size::DW, R6, R10, kCookieSlot));
      as_.emit(alu64(BPF_RSH, R6, 32));
      return;
    case Kind::Constant:
      constant(a.constant);
      return;
    case Kind::CtxMember:
      ctxMemberRead(a);
      return;
    case Kind::ExitReason:
      exitReason();
      return;
    case Kind::CurrentTask:
      as_.emit(call(BPF_FUNC_get_current_task));
      as_.emit(mov64(R6, R0));
      return;
    case Kind::ThreadLeader: {
      Label done = as_.newLabel();
      as_.emit(call(BPF_FUNC_get_current_pid_tgid));
      as_.emit(mov64(R1, R0));
      as_.emit(alu64(BPF_RSH, R1, 32));
      as_.emit(alu32(BPF_SUB, R0, R1));  // tid - tgid, in 32 bits
      as_.emit(mov64(R6, 1));
      as_.jumpIf(BPF_JEQ, R0, 0, done);
      as_.emit(mov64(R6, 0));
      as_.bind(done);
      return;
    }
    case Kind::UserMemory:
      userMemoryRead(a);
      return;
    case Kind::Recorded:
    case Kind::SinceRecorded:
      recordedRead(a);
      return;
    case Kind::None:
      break;
  }
  as_.emit(mov64(R6, 0));
}

// A member of a kernel struct the context points to, at offsets BTF gives.
void ProgramEmitter::ctxMemberRead(const providers::ArgSource& a) {
  int32_t offset = 0;
  for (const auto& [type, member] : a.members) {
    auto at = memberOffset_ ? memberOffset_(type.c_str(), member.c_str())
                            : Result<uint32_t>(makeError("no kernel type information"));
    if (!at) {
      fail(at.error().message);
      return;
    }
    offset += static_cast<int32_t>(*at);
  }
  as_.emit(ldx(Size::DW, R3, R1, a.offset));
  as_.emit(alu64(BPF_ADD, R3, offset));
  readAtR3(false, a.size, a.isSigned);
}

void ProgramEmitter::exitReason() {
  // exit_code is a wait status: a signal number in the low 7 bits
  // (0 for a normal exit), 0x80 when it dumped core.
  Label done = as_.newLabel();
  taskMember("exit_code", 4);
  as_.emit(mov64(R1, R6));
  as_.emit(mov64(R6, CLD_DUMPED));
  as_.emit(mov64(R2, R1));
  as_.emit(alu64(BPF_AND, R2, 0x80));
  as_.jumpIf(BPF_JNE, R2, 0, done);
  as_.emit(mov64(R6, CLD_EXITED));
  as_.emit(alu64(BPF_AND, R1, 0x7f));
  as_.jumpIf(BPF_JEQ, R1, 0, done);
  as_.emit(mov64(R6, CLD_KILLED));
  as_.bind(done);
}

void ProgramEmitter::userMemoryRead(const providers::ArgSource& a) {
  // r3 = the address: a register, plus a scaled index register, plus
  // a displacement.
  if (a.offset >= 0) {
    as_.emit(ldx(Size::DW, R3, R1, a.offset));
  } else {
    as_.emit(mov64(R3, 0));
  }
  if (a.indexOffset >= 0) {
    as_.emit(ldx(Size::DW, R2, R1, a.indexOffset));
    if (a.scale > 1) as_.emit(alu64(BPF_MUL, R2, a.scale));
    as_.emit(alu64(BPF_ADD, R3, R2));
  }
  if (a.constant != 0) {
    constant(a.constant, R2);
    as_.emit(alu64(BPF_ADD, R3, R2));
  }
  readAtR3(true, a.size, a.isSigned);
}

// vtimestamp: the thread's time on CPU until its last switch (kept by
// driver::ThreadCpuClock) plus the time from this CPU's slice start to
// the firing's timestamp, so it holds still through a firing. A probe on
// behalf of the incoming thread (sched:::on-cpu) takes the sum the clock
// noted for it at this switch; without the clock, sum_exec_runtime.
void ProgramEmitter::threadCpuTime() {
  if (maps_.threadCpuSums < 0) {
    taskMember("se.sum_exec_runtime", 8);
    return;
  }
  const bool incoming = hasContextTask();
  // The incoming thread's sum (on-cpu), then the time since the slice began.
  const int16_t slot = pushSlot();
  Label sum = as_.newLabel(), done = as_.newLabel();
  as_.emit(st(Size::DW, R10, slot, 0));
  as_.emit(ldMapFd(R1, maps_.sliceStarts));
  as_.emit(mov64(R2, R10));
  as_.emit(alu64(BPF_ADD, R2, kZeroKeySlot));
  as_.emit(call(BPF_FUNC_map_lookup_elem));
  as_.emit(mov64(R6, 0));
  as_.jumpIf(BPF_JEQ, R0, 0, sum);
  if (incoming) {
    as_.emit(ldx(Size::DW, R1, R0, 8));
    as_.emit(stx(Size::DW, R10, slot, R1));
  }
  as_.emit(ldx(Size::DW, R8, R0, 0));
  as_.jumpIf(BPF_JEQ, R8, 0, sum);  // no switch seen on this CPU yet
  firingTimestamp();                // constant through a firing, as t_dtrace_vtime is
  as_.emit(alu64(BPF_SUB, R6, R8));
  as_.bind(sum);
  if (incoming) {
    as_.emit(ldx(Size::DW, R1, R10, slot));
    as_.emit(alu64(BPF_ADD, R6, R1));
  } else {
    as_.emit(stx(Size::DW, R10, slot, R6));
    currentTaskStorage(as_, maps_.threadCpuSums, false);
    as_.emit(ldx(Size::DW, R6, R10, slot));
    as_.jumpIf(BPF_JEQ, R0, 0, done);
    as_.emit(ldx(Size::DW, R8, R0, 0));
    as_.emit(alu64(BPF_ADD, R6, R8));
  }
  as_.bind(done);
  popSlot();
}

// r6 = current task's member at a dotted path, where each path element but
// the last is a pointer to follow (real_parent.tgid) or an embedded struct
// (se.sum_exec_runtime). Offsets come from the kernel's BTF.
void ProgramEmitter::taskMember(const char* path, uint32_t size) {
  std::string p = path;
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    size_t dot = p.find('.', start);
    parts.push_back(p.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (!memberOffset_) {
    fail("kernel type information is not available");
    return;
  }
  if (!hasContextTask() && types::canCastForLoads("task_struct")) {
    taskMemberByLoads(parts, size);
    return;
  }
  int16_t slot = pushSlot();
  contextTask();
  as_.emit(mov64(R6, R0));
  std::string type = "task_struct";
  for (size_t i = 0; i < parts.size(); i++) {
    auto off = memberOffset_(type.c_str(), parts[i].c_str());
    if (!off) {
      fail(off.error().message);
      popSlot();
      return;
    }
    bool last = i + 1 == parts.size();
    if (!last && parts[i] == "se") {  // embedded struct: add and continue
      as_.emit(alu64(BPF_ADD, R6, static_cast<int32_t>(*off)));
      type = "sched_entity";
      continue;
    }
    as_.emit(st(Size::DW, R10, slot, 0));
    as_.emit(mov64(R1, R10));
    as_.emit(alu64(BPF_ADD, R1, slot));
    as_.emit(mov64(R2, static_cast<int32_t>(last ? size : 8)));
    as_.emit(mov64(R3, R6));
    as_.emit(alu64(BPF_ADD, R3, static_cast<int32_t>(*off)));
    as_.emit(call(BPF_FUNC_probe_read_kernel));
    as_.emit(ldx(last ? sizeOf(size) : Size::DW, R6, R10, slot));
    if (!last) type = "task_struct";  // real_parent
  }
  popSlot();
}

// The same walk as plain loads through the current task cast for loads
// (types/readable_kernel_pointer.h): a pointer member read through it is
// itself typed, so real_parent's tgid is two loads, without a helper call.
void ProgramEmitter::taskMemberByLoads(const std::vector<std::string>& parts, uint32_t size) {
  currentTaskForLoads();
  as_.emit(mov64(R6, R0));
  std::string type = "task_struct";
  for (size_t i = 0; i < parts.size(); i++) {
    const int32_t off = kernelOffset(type.c_str(), parts[i].c_str());
    const bool last = i + 1 == parts.size();
    if (!last && parts[i] == "se") {  // embedded struct
      as_.emit(alu64(BPF_ADD, R6, off));
      type = "sched_entity";
      continue;
    }
    as_.emit(ldx(last ? sizeOf(size) : Size::DW, R6, R6, static_cast<int16_t>(off)));
    if (!last) type = "task_struct";  // real_parent
  }
}

// args[n] is argument n converted to the type the checker gave it; uregs[n]
// a register saved at the thread's entry into the kernel. Both indexes are
// constants (the checker made sure).
void ProgramEmitter::builtinArray(const Expr& index) {
  const Expr& subscript = *index.operands[1];
  if (!index.variable || !subscript.constValue) {
    fail("built-in array " + index.operands[0]->text + "[ ] needs a constant index");
    return;
  }
  const int64_t n = *subscript.constValue;
  if (index.variable->builtin == Builtin::Args) {
    probeArg(static_cast<int>(n));
    if (index.type && index.type->isInteger()) normalize(R6, index.type);
    return;
  }
  const sema::UserRegister* reg = sema::userRegister(n);
  if (!reg) {  // past the table: dtrace_getreg's illegal operation
    fault(ir::Fault::IllOp);
    return;
  }
  if (!reg->ptRegsMember) {
    fail("uregs[" + std::to_string(n) + "] is not available");
    return;
  }
  savedUserRegister(reg->ptRegsMember);
}

// The user registers are the pt_regs at the top of the thread's kernel
// stack (bpf_task_pt_regs), whatever the probe's own context is.
void ProgramEmitter::savedUserRegister(const char* ptRegsMember) {
  const int32_t offset = kernelOffset("pt_regs", ptRegsMember);
  as_.emit(call(BPF_FUNC_get_current_task_btf));
  as_.emit(mov64(R1, R0));
  as_.emit(call(BPF_FUNC_task_pt_regs));
  as_.emit(mov64(R6, R0));
  readKernelWord(R6, R6, offset);
}

// A direct member from memberOffset_; one inside an anonymous struct or
// union (dentry.d_name) from the kernel's types as the type table has them.
int32_t ProgramEmitter::kernelOffset(const char* type, const char* member) {
  if (!memberOffset_) {
    fail("kernel type information is not available");
    return 0;
  }
  auto off = memberOffset_(type, member);
  if (off) return static_cast<int32_t>(*off);
  if (const sema::Type* t = types_.lookup(std::string("struct ") + type); t && t->isStruct()) {
    if (const sema::Member* m = types_.findMember(t, member))
      return static_cast<int32_t>(m->offset);
  }
  fail(off.error().message);
  return 0;
}

void ProgramEmitter::readKernelWord(Reg dst, Reg address, int32_t offset) {
  const int16_t slot = pushSlot();
  as_.emit(mov64(R3, address));
  as_.emit(alu64(BPF_ADD, R3, offset));
  as_.emit(st(Size::DW, R10, slot, 0));
  as_.emit(mov64(R1, R10));
  as_.emit(alu64(BPF_ADD, R1, slot));
  as_.emit(mov64(R2, 8));
  as_.emit(call(BPF_FUNC_probe_read_kernel));
  as_.emit(ldx(Size::DW, dst, R10, slot));
  popSlot();
}

bool ProgramEmitter::builtinString(const sema::Variable& v, Reg base, int32_t offset,
                                   uint32_t size) {
  if (v.builtin == Builtin::Execargs) {
    processArguments(base, offset, size);
    return true;
  }
  if (v.builtin != Builtin::Cwd && v.builtin != Builtin::Root) return false;
  taskPath(v.builtin == Builtin::Root, base, offset, size);
  return true;
}

}  // namespace dtrace::codegen
