// Speculations in probe context. speculation() claims an inactive ID by
// compare-and-swap of its state word in the globals; speculate() tags the
// clause's record with the ID and the use it belongs to; commit() and
// discard() free an active ID, and their records tell the consumer to
// print or drop what it holds for that tag (ir/runtime.h).
#include "codegen/emitter.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;
using ir::SpeculationState;

namespace {

constexpr int32_t state(SpeculationState s) { return static_cast<int32_t>(s); }

}  // namespace

// r6 = the first ID whose state was Inactive and is now Active (a new use),
// or 0, counted as a failed speculation.
void ProgramEmitter::speculationValue() {
  const auto count = static_cast<int32_t>(layout_.speculations);
  Label next = as_.newLabel(), claimed = as_.newLabel();
  Label failed = as_.newLabel(), done = as_.newLabel();
  Label top = as_.newLabel();
  as_.emit(mov64(R5, 0));  // the index being tried
  as_.bind(top);
  as_.jumpIf(BPF_JGE, R5, count, failed);
  as_.emit(ldMapValue(R1, maps_.globals, layout_.speculationOffset));
  as_.emit(mov64(R2, R5));
  as_.emit(alu64(BPF_LSH, R2, 3));
  as_.emit(alu64(BPF_ADD, R1, R2));
  as_.emit(ldx(Size::DW, R0, R1, 0));
  as_.emit(mov64(R2, R0));
  as_.emit(alu64(BPF_AND, R2, static_cast<int32_t>(ir::kSpeculationStateMask)));
  as_.jumpIf(BPF_JNE, R2, state(SpeculationState::Inactive), next);
  // The next use of the ID: its generation goes up by one.
  as_.emit(mov64(R8, R0));
  as_.emit(mov64(R2, R0));
  as_.emit(
      alu64(BPF_ADD, R2, (1 << ir::kSpeculationGenerationShift) + state(SpeculationState::Active)));
  as_.emit(atomicCmpxchg64(R1, 0, R2));
  as_.jumpIf(BPF_JEQ, R0, R8, claimed);  // else another CPU claimed it first
  as_.bind(next);
  as_.emit(alu64(BPF_ADD, R5, 1));
  as_.jump(top);
  as_.bind(claimed);
  as_.emit(mov64(R6, R5));
  as_.emit(alu64(BPF_ADD, R6, 1));
  as_.jump(done);
  as_.bind(failed);
  bumpCounter(offsetof(ir::Counters, speculationsUnavailable));
  as_.emit(mov64(R6, 0));
  as_.bind(done);
}

// For the ID in r6 (not 0): r1 = its state word. The ID is a
// dtrace_specid_t (32 bits). One beyond nspec (a negative one too) is an
// illegal operation, which DTrace raises outside the DIF program (so at no
// DIF offset) for commit() and discard(); speculate() of one drops the
// clause, the drop hiding the fault (dtrace_probe checks CPU_DTRACE_DROP
// first), as for an inactive ID.
void ProgramEmitter::speculationSlot(Label inactive, bool isSpeculate) {
  Label inRange = as_.newLabel();
  as_.emit(mov32(R6, R6));
  as_.jumpIf(BPF_JEQ, R6, 0, inactive);
  as_.jumpIf(BPF_JLE, R6, static_cast<int32_t>(layout_.speculations), inRange);
  if (isSpeculate) {
    as_.jump(inactive);
  } else {
    faultOutsideDif(ir::Fault::IllOp);
  }
  as_.bind(inRange);
  as_.emit(mov64(R2, R6));
  as_.emit(alu64(BPF_SUB, R2, 1));
  // Never taken (r6 is 1..nspec): it bounds the index for the verifier.
  as_.jumpIf(BPF_JGE, R2, static_cast<int32_t>(layout_.speculations), inactive);
  as_.emit(alu64(BPF_LSH, R2, 3));
  as_.emit(ldMapValue(R1, maps_.globals, layout_.speculationOffset));
  as_.emit(alu64(BPF_ADD, R1, R2));
}

// The tag (generation << 32 | ID) of an active speculation. speculate() of
// ID 0 or of an ID that is not active abandons the clause; commit() and
// discard() of one record the tag 0, which the consumer ignores.
void ProgramEmitter::speculationAction(const Expr& call, const ir::Action& action, int32_t data) {
  const auto field = static_cast<int16_t>(data + action.fields.at(0).offset);
  Label none = as_.newLabel(), done = as_.newLabel();
  value(*call.operands[0]);
  speculationSlot(none, action.kind == ir::ActionKind::Speculate);
  as_.emit(ldx(Size::DW, R0, R1, 0));
  as_.emit(mov64(R2, R0));
  as_.emit(alu64(BPF_AND, R2, static_cast<int32_t>(ir::kSpeculationStateMask)));
  as_.jumpIf(BPF_JNE, R2, state(SpeculationState::Active), none);
  if (action.kind != ir::ActionKind::Speculate) {
    // Active -> Inactive, once: a second commit() or discard() of the same
    // use finds it no longer active, and the next speculation() may have it.
    as_.emit(mov64(R8, R0));
    as_.emit(mov64(R2, R0));
    as_.emit(alu64(BPF_SUB, R2, state(SpeculationState::Active)));
    as_.emit(atomicCmpxchg64(R1, 0, R2));
    as_.jumpIf(BPF_JNE, R0, R8, none);
  }
  as_.emit(alu64(BPF_RSH, R0, ir::kSpeculationGenerationShift));
  as_.emit(alu64(BPF_LSH, R0, 32));
  as_.emit(alu64(BPF_OR, R0, R6));
  as_.emit(stx(Size::DW, R9, field, R0));
  if (action.kind == ir::ActionKind::Speculate) reserveSpeculativeRoom(field);
  as_.jump(done);
  as_.bind(none);
  if (action.kind == ir::ActionKind::Speculate) {
    // As in DTrace, the rest of the clause does not run: there is no
    // buffer for what it would record.
    as_.jump(nextClause_);
  } else {
    as_.emit(st(Size::DW, R9, field, 0));
  }
  as_.bind(done);
}

// speculate() reserves room for the clause's whole record in this CPU's
// share of the speculation (specsize), as dtrace_probe() reserves
// ecb->dte_needed in the speculative buffer. Without room the drop ends
// the clause there (CPU_DTRACE_DROP stops its actions), and a record of
// kSpeculativeDropEpid with the tag goes instead, a speculative drop if
// the use is committed.
void ProgramEmitter::reserveSpeculativeRoom(int16_t tagField) {
  if (layout_.speculations == 0) {  // nspec=0: no ID is ever active
    as_.jump(nextClause_);
    return;
  }
  const auto key = static_cast<int32_t>(layout_.keyOffset);
  const auto size = static_cast<int64_t>(sizeof(ir::RecordHeader) + clause_->dataSize);
  Label over = as_.newLabel(), fits = as_.newLabel();
  as_.emit(ldx(Size::DW, R1, R9, tagField));
  as_.emit(alu64(BPF_SUB, R1, 1));  // the ID's index (its low 32 bits are 1..nspec)
  as_.emit(stx(Size::W, R9, static_cast<int16_t>(key), R1));
  mapLookup(maps_.speculationUsage, key);
  as_.jumpIf(BPF_JEQ, R0, 0, fits);
  as_.emit(ldx(Size::DW, R1, R9, tagField));
  as_.emit(alu64(BPF_RSH, R1, 32));
  takeBytes({offsetof(ir::SpeculationUsage, generation), offsetof(ir::SpeculationUsage, bytes)},
            static_cast<uint32_t>(size), layout_.speculationBytes, over);
  as_.jump(fits);
  as_.bind(over);
  const auto marker = static_cast<int32_t>(layout_.faultOffset);  // free until a fault
  as_.emit(st(Size::W, R9, static_cast<int16_t>(marker), -1));
  static_assert(ir::kSpeculativeDropEpid == UINT32_MAX);
  as_.emit(call(BPF_FUNC_get_smp_processor_id));
  as_.emit(stx(Size::W, R9, static_cast<int16_t>(marker + 4), R0));
  as_.emit(ldx(Size::DW, R1, R9, tagField));
  as_.emit(stx(Size::DW, R9, static_cast<int16_t>(marker + sizeof(ir::RecordHeader)), R1));
  sendRecord(marker, sizeof(uint64_t), false, as_.newLabel());
  as_.jump(nextClause_);
  as_.bind(fits);
}

// A speculative record is sent only with a tag: speculate() ran, and
// found room (reserveSpeculativeRoom).
void ProgramEmitter::speculativeRecordAllowed(Label skip) {
  const auto data = static_cast<int32_t>(layout_.recordOffset + sizeof(ir::RecordHeader));
  const auto tag = static_cast<int16_t>(data + *clause_->speculationTagOffset);
  as_.emit(ldx(Size::DW, R1, R9, tag));
  as_.jumpIf(BPF_JEQ, R1, 0, skip);
}

}  // namespace dtrace::codegen
