#include "codegen/emitter.h"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <tuple>

#include "providers/syscall_dispatch.h"
#include "sema/checker.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;
using ast::ExprKind;

namespace {
constexpr int kMaxSlots = (512 + kFirstSpillSlot) / 8;

// @a = f(...) or @a[keys] = f(...).
bool isAggregationAssign(const Expr& e) {
  if (e.kind != ExprKind::Assign) return false;
  const Expr& target = *e.operands[0];
  const Expr& ref = target.kind == ExprKind::Index ? *target.operands[0] : target;
  return ref.variable && ref.variable->kind == sema::Variable::Kind::Aggregation;
}

}  // namespace

ProgramEmitter::ProgramEmitter(const providers::Probe& probe, Activity expectedState,
                               const Layout& layout, const MapFds& maps, sema::TypeTable& types,
                               MemberOffsetFn memberOffset)
    : probe_(&probe),
      expected_(expectedState),
      layout_(layout),
      maps_(maps),
      types_(types),
      memberOffset_(std::move(memberOffset)) {}

void ProgramEmitter::fail(std::string message) {
  if (error_.empty()) error_ = std::move(message);
}

int16_t ProgramEmitter::pushSlot() {
  if (slots_ >= kMaxSlots) {
    fail("expression too complex: out of stack space");
    return kFirstSpillSlot;
  }
  return static_cast<int16_t>(kFirstSpillSlot - 8 * slots_++);
}
void ProgramEmitter::popSlot() { slots_--; }

Result<std::vector<Insn>> ProgramEmitter::emit(const std::vector<EnabledClause>& clauses) {
  Label done = as_.newLabel();
  clauseCount_ = static_cast<uint32_t>(clauses.size());
  const bool syscallGuard = probe_->attachKind == providers::AttachKind::SyscallDispatch;
  auto usesPerTask = [](const EnabledClause& c) { return c.layout->usesPerTask; };
  const bool perTask = std::any_of(clauses.begin(), clauses.end(), usesPerTask) ||
                       std::any_of(errorClauses_.begin(), errorClauses_.end(), usesPerTask);
  if (syscallGuard) {
    // Runs on the raw tracepoint for every system call, or from the
    // dispatcher: not a native call of this number ends here.
    providers::syscallProbeGuard(as_, providers::syscallDirection(probe_->name),
                                 probe_->syscallNumber, done, perTask);
  }
  if (perTask || syscallGuard) {
    if (!syscallGuard) {  // the guard found it already
      as_.emit(mov64(R6, R1));
      as_.emit(call(BPF_FUNC_get_current_task_btf));
      as_.emit(mov64(R8, R0));
      as_.emit(mov64(R1, R6));
    }
    as_.emit(stx(Size::DW, R10, kTaskSlot, R8));
    taskInSlot_ = true;
  }
  prologue();
  as_.emit(st(Size::DW, R10, kTimestampSlot, 0));
  as_.jumpIf(BPF_JEQ, R0, 0, done);
  as_.emit(mov64(R9, R0));
  if (layout_.runtime.tracingCpu) {  // -x cpu: the other CPUs trace nothing
    as_.emit(call(BPF_FUNC_get_smp_processor_id));
    as_.jumpIf(BPF_JNE, R0, static_cast<int32_t>(*layout_.runtime.tracingCpu), done);
  }
  if (maps_.probeTable >= 0) {
    // A shared program: which of its probes fired is in the attach cookie.
    as_.emit(ldx(Size::DW, R1, R10, kCtxSlot));
    as_.emit(call(BPF_FUNC_get_attach_cookie));
    as_.emit(stx(Size::DW, R10, kCookieSlot, R0));
    as_.emit(stx(Size::W, R10, kProbeKeySlot, R0));
    as_.emit(ldMapFd(R1, maps_.probeTable));
    as_.emit(mov64(R2, R10));
    as_.emit(alu64(BPF_ADD, R2, kProbeKeySlot));
    as_.emit(call(BPF_FUNC_map_lookup_elem));
    as_.jumpIf(BPF_JEQ, R0, 0, done);
    as_.emit(stx(Size::DW, R10, kProbeEntrySlot, R0));
  }
  probeGuards(done);
  as_.emit(mov64(R6, 0));  // spilled around nested evaluations, sometimes before it is set
  as_.emit(mov64(R7, 0));  // likewise (a string assignment inside another keeps it)
  // strtok(NULL, ...) goes on only within one probe firing, as in DTrace.
  if (layout_.allocaSize) as_.emit(st(Size::B, R9, static_cast<int16_t>(layout_.strtokOffset), 0));
  for (const auto& ec : clauses) {
    as_.mark();  // -S lists each clause under its own heading
    clause(ec);
    clausePosition_++;
  }
  as_.mark();
  as_.bind(done);
  as_.emit(mov64(R0, 0));
  as_.emit(exit());
  emitCallbacks();  // bpf_loop callbacks follow the main program
  if (!error_.empty()) return makeError(error_);
  return as_.finish();
}

void ProgramEmitter::prologue() {
  as_.emit(stx(Size::DW, R10, kCtxSlot, R1));
  as_.emit(st(Size::W, R10, kZeroKeySlot, 0));
  as_.emit(ldMapFd(R1, maps_.scratch));
  as_.emit(mov64(R2, R10));
  as_.emit(alu64(BPF_ADD, R2, kZeroKeySlot));
  as_.emit(call(BPF_FUNC_map_lookup_elem));
}

void ProgramEmitter::clause(const EnabledClause& ec) {
  clause_ = ec.layout;
  epid_ = ec.epid;
  actionIndex_ = 0;
  nextAction_ = 1;
  nextClause_ = as_.newLabel();
  fault_ = as_.newLabel();
  faultUsed_ = false;

  // DTrace's activity check: a probe fires only while tracing is in the
  // state it expects, so nothing runs before BEGIN or after exit().
  if (expected_ != Activity::Any) {
    as_.emit(ldMapValue(R1, maps_.globals, kStateOffset));
    as_.emit(ldx(Size::DW, R1, R1, 0));
    as_.jumpIf(BPF_JNE, R1, static_cast<int32_t>(expected_), nextClause_);
  }
  resetAlloca();  // DTrace's scratch space lasts one clause firing

  const ast::ProbeClause& pc = *clause_->clause;
  if (pc.predicate) {
    value(*pc.predicate);
    as_.jumpIf(BPF_JEQ, R6, 0, nextClause_);
  }
  const int32_t rec = static_cast<int32_t>(layout_.recordOffset);
  if (clause_->recordsData) {
    storeEpid(R9, static_cast<int16_t>(rec));
    as_.emit(call(BPF_FUNC_get_smp_processor_id));
    as_.emit(stx(Size::W, R9, static_cast<int16_t>(rec + 4), R0));
    if (clause_->hasActionMask) {
      as_.emit(st(Size::DW, R9, static_cast<int16_t>(rec + sizeof(ir::RecordHeader)), 0));
    }
  }
  statements(pc.body);
  if (clause_->recordsData) emitRecord();
  as_.jump(nextClause_);
  if (faultUsed_) faultHandler();
  as_.bind(nextClause_);
}

void ProgramEmitter::emitRecord() {
  Label skipped = as_.newLabel();
  if (clause_->speculationTagOffset) speculativeRecordAllowed(skipped);
  if (layout_.runtime.fillLimit && expected_ != Activity::Cooldown) fillRoomLeft(skipped);
  sendRecord(static_cast<int32_t>(layout_.recordOffset), clause_->dataSize, true, skipped);
}

void ProgramEmitter::sendRecord(int32_t header, uint32_t dataSize, bool clauseRecord,
                                Label skipped) {
  Label sent = as_.newLabel(), dropped = as_.newLabel();
  loadCpuRing(header, dropped);
  const int32_t stamp = stampRecord(header, dataSize);
  if (clauseRecord) wakeFlags(R8);
  as_.emit(mov64(R1, R7));
  as_.emit(mov64(R2, R9));
  as_.emit(alu64(BPF_ADD, R2, header));
  as_.emit(mov64(R3, static_cast<int32_t>(sizeof(ir::RecordHeader) + dataSize) + stamp));
  as_.emit(clauseRecord ? mov64(R4, R8) : mov64(R4, 0));
  as_.emit(call(BPF_FUNC_ringbuf_output));
  as_.jumpIf(BPF_JEQ, R0, 0, sent);
  as_.bind(dropped);
  bumpCounter(offsetof(Counters, bufferDrops));
  as_.bind(sent);
  as_.bind(skipped);
  as_.emit(mov64(R7, 0));  // a map pointer must not reach the next clause's spills
}

void ProgramEmitter::loadCpuRing(int32_t header, Label missing) {
  if (maps_.ownCpuRing >= 0) {
    as_.emit(ldMapFd(R7, maps_.ownCpuRing));
    return;
  }
  as_.emit(ldMapFd(R1, maps_.cpuRings));
  as_.emit(mov64(R2, R9));
  as_.emit(alu64(BPF_ADD, R2, header + static_cast<int32_t>(offsetof(ir::RecordHeader, cpu))));
  as_.emit(call(BPF_FUNC_map_lookup_elem));
  as_.jumpIf(BPF_JEQ, R0, 0, missing);
  as_.emit(mov64(R7, R0));
}

// Taken as the record is sent, so that records stamped before the
// consumer's snapshot of the time are in their rings by then.
int32_t ProgramEmitter::stampRecord(int32_t header, uint32_t dataSize) {
  if (!layout_.runtime.recordTimestamps) return 0;
  as_.emit(call(BPF_FUNC_ktime_get_ns));
  as_.emit(
      stx(Size::DW, R9, static_cast<int16_t>(header + sizeof(ir::RecordHeader) + dataSize), R0));
  return static_cast<int32_t>(ir::kRecordTimestampSize);
}

// Waking the consumer for every record costs the probe an interrupt; it
// reads the rings every switch interval, so a record wakes it only when its
// ring fills up (or tracing is to end: exit() in the clause).
void ProgramEmitter::wakeFlags(Reg flags) {
  const bool exits =
      std::any_of(clause_->orderedActions.begin(), clause_->orderedActions.end(),
                  [](const ir::Action& a) { return a.kind == ir::ActionKind::Exit; });
  if (exits) {  // unread records before it would keep a plain wake-up quiet
    as_.emit(mov64(flags, BPF_RB_FORCE_WAKEUP));
    return;
  }
  if (maps_.ringbufWakeBytes == 0) {
    as_.emit(mov64(flags, 0));
    return;
  }
  Label quiet = as_.newLabel();
  as_.emit(mov64(R1, R7));
  as_.emit(mov64(R2, BPF_RB_AVAIL_DATA));
  as_.emit(call(BPF_FUNC_ringbuf_query));
  as_.emit(mov64(flags, BPF_RB_NO_WAKEUP));
  as_.emit(ldImm64(R1, maps_.ringbufWakeBytes));
  as_.jumpIf(BPF_JLT, R0, R1, quiet);
  as_.emit(mov64(flags, BPF_RB_FORCE_WAKEUP));
  as_.bind(quiet);
}

// bufpolicy=fill: a record that no longer fits in this CPU's share is a
// drop, and tracing stops as exit() stops it (END still runs; its records
// were kept out of the share).
void ProgramEmitter::fillRoomLeft(Label skip) {
  Label fits = as_.newLabel();
  lookupCounters(skip);
  as_.emit(ldx(Size::DW, R2, R0, offsetof(Counters, filledBytes)));
  as_.emit(alu64(BPF_ADD, R2, static_cast<int32_t>(sizeof(ir::RecordHeader) + clause_->dataSize)));
  as_.emit(ldImm64(R3, layout_.runtime.fillLimit));
  as_.jumpIf(BPF_JLE, R2, R3, fits);
  as_.emit(mov64(R1, 1));
  as_.emit(atomicAdd64(R0, offsetof(Counters, bufferDrops), R1));
  const Activity from = expected_ == Activity::Any ? Activity::Active : expected_;
  as_.emit(ldMapValue(R1, maps_.globals, kStateOffset));
  as_.emit(mov64(R0, static_cast<int32_t>(from)));
  as_.emit(mov64(R2, static_cast<int32_t>(Activity::Draining)));
  as_.emit(atomicCmpxchg64(R1, 0, R2));
  as_.jump(skip);
  as_.bind(fits);
  as_.emit(stx(Size::DW, R0, offsetof(Counters, filledBytes), R2));
}

void ProgramEmitter::storeEpid(Reg base, int16_t offset) {
  if (!identityAtRunTime()) {
    as_.emit(st(Size::W, base, offset, static_cast<int32_t>(epid_)));
    return;
  }
  const ProbeTableEntry entry(0);
  as_.emit(ldx(Size::DW, R1, R10, kProbeEntrySlot));
  as_.emit(ldx(Size::W, R1, R1, static_cast<int16_t>(entry.epidOffset(clausePosition_))));
  as_.emit(stx(Size::W, base, offset, R1));
}

void ProgramEmitter::loadProbeEntry() { as_.emit(ldx(Size::DW, R8, R10, kProbeEntrySlot)); }

void ProgramEmitter::lookupCounters(Label missing) {
  as_.emit(ldMapFd(R1, maps_.counters));
  as_.emit(mov64(R2, R10));
  as_.emit(alu64(BPF_ADD, R2, kZeroKeySlot));
  as_.emit(call(BPF_FUNC_map_lookup_elem));
  as_.jumpIf(BPF_JEQ, R0, 0, missing);
}

// r0 points at a budget (a generation word and a byte count) and r1 holds
// the current generation: a budget of an older one starts again from 0.
// `bytes` more are taken, or `over` is jumped to, taking none, when they
// would pass `limit`. r2 and r3 are clobbered.
void ProgramEmitter::takeBytes(Budget budget, uint32_t bytes, uint64_t limit, Label over) {
  Label current = as_.newLabel();
  const auto generation = static_cast<int16_t>(budget.generationOffset);
  const auto used = static_cast<int16_t>(budget.bytesOffset);
  as_.emit(ldx(Size::DW, R2, R0, generation));
  as_.jumpIf(BPF_JEQ, R2, R1, current);
  as_.emit(stx(Size::DW, R0, generation, R1));
  as_.emit(st(Size::DW, R0, used, 0));
  as_.bind(current);
  as_.emit(ldx(Size::DW, R2, R0, used));
  as_.emit(alu64(BPF_ADD, R2, static_cast<int32_t>(bytes)));
  as_.emit(ldImm64(R3, limit));
  as_.jumpIf(BPF_JGT, R2, R3, over);
  as_.emit(stx(Size::DW, R0, used, R2));
}

void ProgramEmitter::bumpCounter(uint32_t counterOffset) {
  Label skip = as_.newLabel();
  lookupCounters(skip);
  as_.emit(mov64(R1, 1));
  as_.emit(atomicAdd64(R0, static_cast<int16_t>(counterOffset), R1));
  as_.bind(skip);
}

void ProgramEmitter::loadMap(const MapRef& map, Label missing) {
  if (map.slot < 0) {
    as_.emit(ldMapFd(R1, map.fd));
    return;
  }
  // An array of maps' lookup is inlined by the verifier: a few
  // instructions, the price of sharing.
  as_.emit(st(Size::W, R10, kMapSlotKeySlot, map.slot));
  as_.emit(ldMapFd(R1, map.fd));
  as_.emit(mov64(R2, R10));
  as_.emit(alu64(BPF_ADD, R2, kMapSlotKeySlot));
  as_.emit(call(BPF_FUNC_map_lookup_elem));
  as_.jumpIf(BPF_JEQ, R0, 0, missing);
  as_.emit(mov64(R1, R0));
}

void ProgramEmitter::mapLookup(const MapRef& map, int32_t key) {
  Label missing = as_.newLabel();
  loadMap(map, missing);
  as_.emit(mov64(R2, R9));
  as_.emit(alu64(BPF_ADD, R2, key));
  as_.emit(call(BPF_FUNC_map_lookup_elem));
  as_.bind(missing);  // r0 = 0
}

void ProgramEmitter::mapDelete(const MapRef& map, int32_t key) {
  Label missing = as_.newLabel(), done = as_.newLabel();
  loadMap(map, missing);
  as_.emit(mov64(R2, R9));
  as_.emit(alu64(BPF_ADD, R2, key));
  as_.emit(call(BPF_FUNC_map_delete_elem));
  if (map.slot < 0) return;
  as_.jump(done);
  as_.bind(missing);
  as_.emit(mov64(R0, -ENOENT));
  as_.bind(done);
}

void ProgramEmitter::mapUpdate(const MapRef& map, int32_t key, int32_t value, int32_t flags) {
  Label missing = as_.newLabel(), done = as_.newLabel();
  loadMap(map, missing);
  as_.emit(mov64(R2, R9));
  as_.emit(alu64(BPF_ADD, R2, key));
  as_.emit(mov64(R3, R9));
  as_.emit(alu64(BPF_ADD, R3, value));
  as_.emit(mov64(R4, flags));
  as_.emit(call(BPF_FUNC_map_update_elem));
  if (map.slot < 0) return;
  as_.jump(done);
  as_.bind(missing);
  as_.emit(mov64(R0, -ENOENT));
  as_.bind(done);
}

// A fault abandons the ECB (its record is never submitted) and reports an
// ERROR record instead: {0, cpu} {epid, fault, address, action, offset}.
void ProgramEmitter::fault(ir::Fault kind) {
  faultUsed_ = true;
  as_.emit(st(Size::DW, R10, kFaultAddrSlot, 0));
  as_.emit(st(Size::W, R10, kFaultKindSlot, static_cast<int32_t>(kind)));
  as_.emit(st(Size::W, R10, kFaultActionSlot, actionIndex_));
  as_.emitOwnIndex(st(Size::W, R10, kFaultPcSlot, 0));
  as_.jump(fault_);
}

void ProgramEmitter::faultOutsideDif(ir::Fault kind) {
  faultUsed_ = true;
  as_.emit(st(Size::DW, R10, kFaultAddrSlot, 0));
  as_.emit(st(Size::W, R10, kFaultKindSlot, static_cast<int32_t>(kind)));
  as_.emit(st(Size::W, R10, kFaultActionSlot, actionIndex_));
  as_.emit(st(Size::W, R10, kFaultPcSlot, -1));  // UINT32_MAX: no offset
  as_.jump(fault_);
}

void ProgramEmitter::fault(ir::Fault kind, Reg address) {
  as_.emit(stx(Size::DW, R10, kFaultAddrSlot, address));
  faultUsed_ = true;
  as_.emit(st(Size::W, R10, kFaultKindSlot, static_cast<int32_t>(kind)));
  as_.emit(st(Size::W, R10, kFaultActionSlot, actionIndex_));
  as_.emitOwnIndex(st(Size::W, R10, kFaultPcSlot, 0));
  as_.jump(fault_);
}

// The verifier keeps a pointer within its map value; its number, stored
// to and read back from the fault record's address field (which only the
// fault path writes, and dtrace may read a pointer as root), may go
// anywhere. For the address a fault reports.
void ProgramEmitter::pointerValue(Reg dst, Reg pointer) {
  const int16_t field = static_cast<int16_t>(layout_.faultOffset + sizeof(ir::RecordHeader) +
                                             offsetof(ir::FaultRecord, address));
  as_.emit(stx(Size::DW, R9, field, pointer));
  as_.emit(ldx(Size::DW, dst, R9, field));
}

void ProgramEmitter::faultHandler() {
  as_.bind(fault_);
  const int16_t f = static_cast<int16_t>(layout_.faultOffset);
  const int16_t body = static_cast<int16_t>(f + sizeof(ir::RecordHeader));
  as_.emit(st(Size::W, R9, f, 0));
  as_.emit(call(BPF_FUNC_get_smp_processor_id));
  as_.emit(stx(Size::W, R9, static_cast<int16_t>(f + 4), R0));
  storeEpid(R9, static_cast<int16_t>(body + offsetof(ir::FaultRecord, epid)));
  as_.emit(ldx(Size::W, R1, R10, kFaultKindSlot));
  as_.emit(stx(Size::W, R9, static_cast<int16_t>(body + offsetof(ir::FaultRecord, fault)), R1));
  as_.emit(ldx(Size::DW, R1, R10, kFaultAddrSlot));
  as_.emit(stx(Size::DW, R9, static_cast<int16_t>(body + offsetof(ir::FaultRecord, address)), R1));
  as_.emit(ldx(Size::W, R1, R10, kFaultActionSlot));
  as_.emit(
      stx(Size::W, R9, static_cast<int16_t>(body + offsetof(ir::FaultRecord, actionIndex)), R1));
  as_.emit(ldx(Size::W, R1, R10, kFaultPcSlot));
  as_.emit(stx(Size::W, R9, static_cast<int16_t>(body + offsetof(ir::FaultRecord, difOffset)), R1));
  bumpCounter(offsetof(Counters, errors));
  sendRecord(f, sizeof(ir::FaultRecord), false, as_.newLabel());
  if (!inErrorClause_) runErrorClauses();
  as_.jump(nextClause_);
}

// The ERROR clauses read arg1-arg5 from the fault record just built in
// scratch; the faulting clause's labels and state come back afterwards.
void ProgramEmitter::runErrorClauses() {
  if (errorClauses_.empty()) return;
  const auto saved = std::make_tuple(probe_, expected_, clause_, epid_, actionIndex_, firstAction_,
                                     nextAction_, nextClause_, fault_, faultUsed_);
  probe_ = errorProbe_;
  expected_ = Activity::Any;
  inErrorClause_ = true;
  for (const EnabledClause& ec : errorClauses_) clause(ec);
  inErrorClause_ = false;
  std::tie(probe_, expected_, clause_, epid_, actionIndex_, firstAction_, nextAction_, nextClause_,
           fault_, faultUsed_) = saved;
}

void ProgramEmitter::statements(const std::vector<ast::StmtPtr>& stmts) {
  for (const auto& s : stmts) statement(*s);
}

void ProgramEmitter::statement(const ast::Stmt& stmt) {
  switch (stmt.kind) {
    case ast::StmtKind::Empty:
      return;
    case ast::StmtKind::Block:
      statements(stmt.body);
      return;
    case ast::StmtKind::If: {
      Label elseLabel = as_.newLabel(), end = as_.newLabel();
      value(*stmt.expr);
      as_.jumpIf(BPF_JEQ, R6, 0, elseLabel);
      statements(stmt.body);
      as_.jump(end);
      as_.bind(elseLabel);
      statements(stmt.elseBody);
      as_.bind(end);
      return;
    }
    case ast::StmtKind::Expr:
      break;
  }
  const Expr& e = *stmt.expr;
  firstAction_ = actionIndex_ = nextAction_;
  nextAction_ += dtraceActions(e);
  if (e.kind == ExprKind::Call && sema::isActionName(e.text)) {
    action(e);
  } else if (isAggregationAssign(e)) {
    aggregation(e);
  } else if (e.type && e.type->isString() && e.kind != ExprKind::Assign) {
    // A string computed for its effect (strtok(s, ",");): into a temporary.
    stringInto(e, R9, static_cast<int32_t>(layout_.stringTempOffset), layout_.stringTempSize);
  } else {
    value(e);
  }
}

// How many actions dt_cc.c makes of a statement (dtrace_probe numbers
// them): one per printf()-like argument (one with none); two for
// normalize(), trunc() and setopt() (the aggregation or option, then the
// value) and for tracemem() with a dynamic size; one per aggregation of
// printa(); for an aggregation its ID, each key, the increment and the
// aggregating action (dt_compile_agg); one for anything else.
int ProgramEmitter::dtraceActions(const Expr& e) const {
  if (isAggregationAssign(e)) {
    const Expr& target = *e.operands[0];
    const Expr& fn = *e.operands[1];
    const Expr& ref = target.kind == ExprKind::Index ? *target.operands[0] : target;
    const ir::AggFuncInfo& info = layout_.aggregations.at(ref.variable->aggregationId).info();
    const size_t keys = target.kind == ExprKind::Index ? target.operands.size() - 1 : 0;
    const bool increment = info.hasIncrement && fn.operands.size() == info.maxArgs;
    return static_cast<int>(2 + keys + (increment ? 1 : 0));
  }
  if (e.kind != ExprKind::Call || !sema::isActionName(e.text)) return 1;
  const ir::ActionKind kind = clause_->actions.at(&e).action.kind;
  const int args = static_cast<int>(e.operands.size());
  switch (kind) {
    case ir::ActionKind::Printf:
    case ir::ActionKind::System:
    case ir::ActionKind::Freopen:
      return std::max(1, args - 1);
    case ir::ActionKind::Printa:
      return e.operands[0]->kind == ExprKind::StringLiteral ? args - 1 : args;
    case ir::ActionKind::Normalize:
    case ir::ActionKind::Trunc:
    case ir::ActionKind::Setopt:
      return 2;
    case ir::ActionKind::Tracemem:
      return args > 2 ? 2 : 1;
    default:
      return 1;
  }
}

// Writes one action's values into its record fields, or acts.
void ProgramEmitter::action(const Expr& call) {
  const ActionLayout& al = clause_->actions.at(&call);
  const int32_t data = static_cast<int32_t>(layout_.recordOffset + sizeof(ir::RecordHeader));
  switch (al.action.kind) {
    case ir::ActionKind::Tracemem:
      tracememAction(*call.operands[0], call.operands.size() > 2 ? call.operands[2].get() : nullptr,
                     al.action, data);
      break;
    case ir::ActionKind::Printm:
      tracememAction(*call.operands[1], nullptr, al.action, data);
      break;
    case ir::ActionKind::Raise:
    case ir::ActionKind::Stop:
      signalAction(call);
      break;
    case ir::ActionKind::Chill:
      chillAction(call);
      break;
    case ir::ActionKind::Print:
      printAction(call, al.action, data);
      break;
    case ir::ActionKind::Speculate:
    case ir::ActionKind::Commit:
    case ir::ActionKind::Discard:
      speculationAction(call, al.action, data);
      break;
    case ir::ActionKind::Stack:
    case ir::ActionKind::Symbol:  // the call is the value
      storeField(call, al.action.fields.at(0), R9, data);
      break;
    default: {
      const size_t first = ir::firstRecordedArgument(al.action.kind);
      // Each recorded argument is an action of its own; normalize()'s and
      // trunc()'s follow their aggregation's.
      const bool afterAggregation =
          al.action.kind == ir::ActionKind::Normalize || al.action.kind == ir::ActionKind::Trunc;
      for (size_t i = 0; i < al.action.fields.size(); i++) {
        actionIndex_ = firstAction_ + static_cast<int>(i) + (afterAggregation ? 1 : 0);
        storeField(*call.operands[first + i], al.action.fields[i], R9, data);
      }
      break;
    }
  }
  if (clause_->hasActionMask) {
    if (al.index >= 64) fail("too many actions in one clause");
    as_.emit(ldx(Size::DW, R1, R9, static_cast<int16_t>(data)));
    as_.emit(ldImm64(R2, uint64_t{1} << (al.index & 63)));
    as_.emit(alu64(BPF_OR, R1, R2));
    as_.emit(stx(Size::DW, R9, static_cast<int16_t>(data), R1));
  }
  if (al.action.kind == ir::ActionKind::Exit) exitAction();  // r6 still holds the status
}

// exit() moves tracing from the expected state to Draining, once: a second
// exit (on another CPU) loses the race and its record is dropped, as in
// DTrace. During END (Cooldown) the new status is simply recorded. An
// ERROR clause may run in any state: BEGIN's (Warmup) or END's too. The
// winner also leaves its status in the globals, which the consumer polls:
// the record may be dropped (a full buffer), the end of tracing never is.
void ProgramEmitter::exitAction() {
  auto publishStatus = [&] {
    as_.emit(mov32(R2, R6));  // the status as an unsigned 32-bit int
    as_.emit(ldImm64(R3, kExitRequested));
    as_.emit(alu64(BPF_OR, R2, R3));
    as_.emit(ldMapValue(R1, maps_.globals, kExitOffset));
    as_.emit(stx(Size::DW, R1, 0, R2));
  };
  if (expected_ == Activity::Cooldown) {
    publishStatus();
    return;
  }
  as_.emit(ldMapValue(R1, maps_.globals, kStateOffset));
  if (expected_ == Activity::Any) {
    Label exiting = as_.newLabel(), done = as_.newLabel();
    as_.emit(ldx(Size::DW, R3, R1, 0));
    as_.jumpIf(BPF_JEQ, R3, static_cast<int32_t>(Activity::Cooldown), done);
    as_.jumpIf(BPF_JEQ, R3, static_cast<int32_t>(Activity::Warmup), exiting);
    as_.jumpIf(BPF_JNE, R3, static_cast<int32_t>(Activity::Active), nextClause_);
    as_.bind(exiting);
    as_.emit(mov64(R0, R3));
    as_.emit(mov64(R2, static_cast<int32_t>(Activity::Draining)));
    as_.emit(atomicCmpxchg64(R1, 0, R2));
    as_.jumpIf(BPF_JNE, R0, R3, nextClause_);
    as_.bind(done);
    publishStatus();
    return;
  }
  const auto from = static_cast<int32_t>(expected_);
  as_.emit(mov64(R0, from));
  as_.emit(mov64(R2, static_cast<int32_t>(Activity::Draining)));
  as_.emit(atomicCmpxchg64(R1, 0, R2));
  as_.jumpIf(BPF_JNE, R0, from, nextClause_);
  publishStatus();
}

void ProgramEmitter::storeField(const Expr& e, const ir::Field& field, Reg base,
                                int32_t baseOffset) {
  const int32_t at = baseOffset + static_cast<int32_t>(field.offset);
  if (ir::isCodeAddressKind(field.kind)) {
    codeAddressInto(e, field, base, at);
    return;
  }
  if (field.kind == ir::DataKind::String) {
    stringInto(e, base, at, field.size);
    return;
  }
  if (isAggregate(e.type)) {
    if (base != R9) fail("a struct value can only be recorded in scratch");
    aggregateInto(e, at, field.size);
    return;
  }
  // Arithmetic keeps 64-bit intermediates, as DIF does; a recorded value
  // has its type's width, so an int that overflowed prints as an int.
  value(e);
  normalize(R6, e.type);
  as_.emit(stx(sizeOf(field.size), base, static_cast<int16_t>(at), R6));
}

}  // namespace dtrace::codegen
