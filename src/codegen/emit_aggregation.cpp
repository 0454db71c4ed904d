// Aggregating functions in probe context: @name[keys] = func(args). The
// entry of (tuple, this CPU) — of (tuple, this CPU, bucket) for a
// distribution — is found or made, brought to the current generation
// (clear() leaves older entries behind), and the argument is folded into
// its data words (ir/aggregation.h) as DTrace's kernel does.
#include <cstddef>

#include "codegen/emitter.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;
using ast::ExprKind;

namespace {

constexpr int16_t kGenerationOffset = 0;
constexpr int16_t kDataOffset = 8 * ir::kAggregationGenerationWords;

int16_t dataWord(uint32_t i) { return static_cast<int16_t>(kDataOffset + 8 * i); }

}  // namespace

void ProgramEmitter::aggregation(const Expr& assign) {
  const Expr& target = *assign.operands[0];
  const Expr& fn = *assign.operands[1];
  const Expr& ref = target.kind == ExprKind::Index ? *target.operands[0] : target;
  const ir::Aggregation& agg = layout_.aggregations.at(ref.variable->aggregationId);
  const ir::AggFuncInfo& info = agg.info();
  const MapRef& map = maps_.aggregations.at(agg.id);
  Label current = as_.newLabel(), fresh = as_.newLabel(), dropped = as_.newLabel(),
        done = as_.newLabel();

  // In dt_compile_agg's order, each a DTrace action of its own (after the
  // aggregation's ID): the keys, the increment (the optional last
  // argument), then the value, the aggregating action's argument. The
  // increment and the value wait on the stack.
  const int32_t key = static_cast<int32_t>(layout_.keyOffset);
  for (uint32_t off = 0; off < agg.keySize; off += 8) {
    as_.emit(st(Size::DW, R9, static_cast<int16_t>(key + off), 0));
  }
  for (size_t i = 0; i < agg.keys.size(); i++) {
    actionIndex_ = firstAction_ + 1 + static_cast<int>(i);
    storeField(*target.operands[i + 1], agg.keys[i], R9, key);
  }
  actionIndex_ = firstAction_ + 1 + static_cast<int>(agg.keys.size());
  int16_t valueSlot = 0, incrementSlot = 0;
  if (info.hasIncrement && fn.operands.size() == info.maxArgs) {
    value(*fn.operands.back());
    incrementSlot = pushSlot();
    as_.emit(stx(Size::DW, R10, incrementSlot, R6));
    actionIndex_++;
  }
  if (info.takesValue) {
    value(*fn.operands[0]);
    valueSlot = pushSlot();
    as_.emit(stx(Size::DW, R10, valueSlot, R6));
  }
  // The entry belongs to this CPU: only this CPU ever updates it.
  as_.emit(call(BPF_FUNC_get_smp_processor_id));
  as_.emit(stx(Size::DW, R9, static_cast<int16_t>(key + agg.keySize), R0));
  if (agg.bucketed()) {
    // A distribution's entry counts one bucket: the slot's high half.
    distributionBucket(agg, valueSlot);
    as_.jumpIf(BPF_JGE, R6, static_cast<int32_t>(agg.dataWords()), dropped);
    as_.emit(stx(Size::W, R9, static_cast<int16_t>(key + agg.keySize + 4), R6));
  }

  // r0 = the entry; a missing or older-generation one is (re)made from zeros.
  mapLookup(map, key);
  as_.jumpIf(BPF_JEQ, R0, 0, fresh);
  as_.emit(ldx(Size::DW, R1, R0, kGenerationOffset));
  as_.emit(ldMapValue(R2, maps_.globals, agg.generationOffset));
  as_.emit(ldx(Size::DW, R2, R2, 0));
  as_.jumpIf(BPF_JEQ, R1, R2, current);
  as_.bind(fresh);
  chargeAggregationEntry(agg, dropped);
  loadMap(map, dropped);
  as_.emit(mov64(R2, R9));
  as_.emit(alu64(BPF_ADD, R2, key));
  as_.emit(ldMapValue(R3, maps_.aggregationZero, 0));
  as_.emit(mov64(R4, BPF_ANY));
  as_.emit(call(BPF_FUNC_map_update_elem));
  as_.jumpIf(BPF_JNE, R0, 0, dropped);
  mapLookup(map, key);
  as_.jumpIf(BPF_JEQ, R0, 0, dropped);
  as_.emit(ldMapValue(R2, maps_.globals, agg.generationOffset));
  as_.emit(ldx(Size::DW, R2, R2, 0));
  as_.emit(stx(Size::DW, R0, kGenerationOffset, R2));
  if (info.merge == ir::AggMerge::Min || info.merge == ir::AggMerge::Max) {
    // An extreme starts at the first value.
    as_.emit(ldx(Size::DW, R2, R10, valueSlot));
    as_.emit(stx(Size::DW, R0, dataWord(0), R2));
  }
  as_.bind(current);
  foldIntoAggregation(agg, valueSlot, incrementSlot);
  as_.jump(done);
  as_.bind(dropped);
  bumpCounter(offsetof(ir::Counters, aggregationDrops));
  as_.bind(done);
  if (valueSlot) popSlot();
  if (incrementSlot) popSlot();
}

// A new entry spends its charge from this CPU's aggsize for the interval,
// or is a drop when the rest would not hold it. r0-r5 are clobbered.
void ProgramEmitter::chargeAggregationEntry(const ir::Aggregation& agg, Label dropped) {
  Label charged = as_.newLabel();
  lookupCounters(charged);
  as_.emit(ldMapValue(R1, maps_.globals, layout_.aggregationEpochOffset));
  as_.emit(ldx(Size::DW, R1, R1, 0));
  takeBytes({offsetof(ir::Counters, aggregationEpoch), offsetof(ir::Counters, aggregationBytes)},
            agg.entryCharge(), layout_.runtime.aggregationBytesPerCpu, dropped);
  as_.bind(charged);
}

// r0 is the entry's value. r1-r5 and r6-r8 are free here.
void ProgramEmitter::foldIntoAggregation(const ir::Aggregation& agg, int16_t valueSlot,
                                         int16_t incrementSlot) {
  auto loadValue = [&](Reg r) { as_.emit(ldx(Size::DW, r, R10, valueSlot)); };
  auto addOne = [&](uint32_t word) {
    as_.emit(ldx(Size::DW, R1, R0, dataWord(word)));
    as_.emit(alu64(BPF_ADD, R1, 1));
    as_.emit(stx(Size::DW, R0, dataWord(word), R1));
  };
  auto addValue = [&](uint32_t word) {
    loadValue(R2);
    as_.emit(ldx(Size::DW, R1, R0, dataWord(word)));
    as_.emit(alu64(BPF_ADD, R1, R2));
    as_.emit(stx(Size::DW, R0, dataWord(word), R1));
  };
  switch (agg.func) {
    case ir::AggFunc::Count:
      addOne(0);
      return;
    case ir::AggFunc::Sum:
      addValue(0);
      return;
    case ir::AggFunc::Avg:
      addOne(0);
      addValue(1);
      return;
    case ir::AggFunc::Min:
    case ir::AggFunc::Max: {
      const bool isSigned = agg.valueKind == ir::DataKind::Signed;
      Label keep = as_.newLabel();
      loadValue(R2);
      as_.emit(ldx(Size::DW, R1, R0, dataWord(0)));
      const uint8_t worse = agg.func == ir::AggFunc::Min ? (isSigned ? BPF_JSGE : BPF_JGE)
                                                         : (isSigned ? BPF_JSLE : BPF_JLE);
      as_.jumpIf(worse, R2, R1, keep);
      as_.emit(stx(Size::DW, R0, dataWord(0), R2));
      as_.bind(keep);
      return;
    }
    case ir::AggFunc::Stddev:
      addOne(0);
      addValue(1);
      addSquare(valueSlot);
      return;
    case ir::AggFunc::Quantize:
    case ir::AggFunc::Lquantize:
    case ir::AggFunc::Llquantize:
      // The entry is the bucket's: its count += the increment (1 by
      // default), its sum += the value times the increment.
      if (incrementSlot) {
        as_.emit(ldx(Size::DW, R2, R10, incrementSlot));
      } else {
        as_.emit(mov64(R2, 1));
      }
      as_.emit(ldx(Size::DW, R1, R0, dataWord(0)));
      as_.emit(alu64(BPF_ADD, R1, R2));
      as_.emit(stx(Size::DW, R0, dataWord(0), R1));
      loadValue(R3);
      as_.emit(alu64(BPF_MUL, R3, R2));
      as_.emit(ldx(Size::DW, R1, R0, dataWord(1)));
      as_.emit(alu64(BPF_ADD, R1, R3));
      as_.emit(stx(Size::DW, R0, dataWord(1), R1));
      return;
  }
}

// r6 = the bucket of a distribution the value on the stack falls in.
void ProgramEmitter::distributionBucket(const ir::Aggregation& agg, int16_t valueSlot) {
  as_.emit(ldx(Size::DW, R6, R10, valueSlot));
  if (agg.func == ir::AggFunc::Quantize) {
    quantizeBucket();
  } else if (agg.func == ir::AggFunc::Lquantize) {
    lquantizeBucket(agg.params);
  } else {
    llquantizeBucket(agg.params);
  }
}

// stddev's sum of squares: the two words after count and sum, low then
// high, += value^2 in 128 bits (from 32-bit halves of |value|).
void ProgramEmitter::addSquare(int16_t valueSlot) {
  Label positive = as_.newLabel(), noCarry = as_.newLabel(), noCarry2 = as_.newLabel();
  as_.emit(ldx(Size::DW, R1, R10, valueSlot));
  as_.jumpIf(BPF_JSGE, R1, 0, positive);
  as_.emit(neg64(R1));
  as_.bind(positive);
  as_.emit(mov64(R2, R1));
  as_.emit(alu64(BPF_RSH, R2, 32));  // r2 = high half
  as_.emit(mov32(R1, R1));           // r1 = low half
  as_.emit(mov64(R3, R1));
  as_.emit(alu64(BPF_MUL, R3, R1));  // r3 = low * low
  as_.emit(mov64(R4, R2));
  as_.emit(alu64(BPF_MUL, R4, R1));  // r4 = high * low (twice, at bit 32)
  as_.emit(alu64(BPF_MUL, R2, R2));  // r2 = high * high, at bit 64
  as_.emit(mov64(R5, R4));
  as_.emit(alu64(BPF_RSH, R5, 31));
  as_.emit(alu64(BPF_ADD, R2, R5));  // high word so far
  as_.emit(alu64(BPF_LSH, R4, 33));
  as_.emit(alu64(BPF_ADD, R4, R3));  // low word
  as_.jumpIf(BPF_JGE, R4, R3, noCarry);
  as_.emit(alu64(BPF_ADD, R2, 1));
  as_.bind(noCarry);
  // Add {r4 low, r2 high} to the words.
  as_.emit(ldx(Size::DW, R1, R0, dataWord(2)));
  as_.emit(alu64(BPF_ADD, R1, R4));
  as_.emit(stx(Size::DW, R0, dataWord(2), R1));
  as_.emit(ldx(Size::DW, R3, R0, dataWord(3)));
  as_.emit(alu64(BPF_ADD, R3, R2));
  as_.jumpIf(BPF_JGE, R1, R4, noCarry2);
  as_.emit(alu64(BPF_ADD, R3, 1));
  as_.bind(noCarry2);
  as_.emit(stx(Size::DW, R0, dataWord(3), R3));
}

// r7 = floor(log2(r6)) for r6 > 0 (unsigned); r6 is consumed.
void ProgramEmitter::log2Floor() {
  as_.emit(mov64(R7, 0));
  for (int shift : {32, 16, 8, 4, 2, 1}) {
    Label small = as_.newLabel();
    as_.emit(mov64(R8, R6));
    as_.emit(alu64(BPF_RSH, R8, shift));
    as_.jumpIf(BPF_JEQ, R8, 0, small);
    as_.emit(mov64(R6, R8));
    as_.emit(alu64(BPF_ADD, R7, shift));
    as_.bind(small);
  }
}

// r6 = quantize()'s bucket for the value in r6 (ir::quantizeBucket).
void ProgramEmitter::quantizeBucket() {
  Label negative = as_.newLabel(), done = as_.newLabel(), lowest = as_.newLabel();
  const int32_t zero = static_cast<int32_t>(ir::kQuantizeZeroBucket);
  Label nonzero = as_.newLabel();
  as_.jumpIf(BPF_JNE, R6, 0, nonzero);
  as_.emit(mov64(R6, zero));
  as_.jump(done);
  as_.bind(nonzero);
  as_.jumpIf(BPF_JSLT, R6, 0, negative);
  log2Floor();
  as_.emit(mov64(R6, R7));
  as_.emit(alu64(BPF_ADD, R6, zero + 1));
  as_.jump(done);
  as_.bind(negative);
  as_.emit(ldImm64(R8, static_cast<uint64_t>(-(int64_t{1} << 62))));
  as_.jumpIf(BPF_JSLE, R6, R8, lowest);
  as_.emit(neg64(R6));
  log2Floor();
  as_.emit(mov64(R6, zero - 1));
  as_.emit(alu64(BPF_SUB, R6, R7));
  as_.jump(done);
  as_.bind(lowest);
  as_.emit(mov64(R6, 0));
  as_.bind(done);
}

// r6 = lquantize()'s bucket for the value in r6 (ir::lquantizeBucket).
void ProgramEmitter::lquantizeBucket(const ir::AggParams& p) {
  Label below = as_.newLabel(), done = as_.newLabel(), inside = as_.newLabel();
  as_.emit(ldImm64(R8, static_cast<uint64_t>(p.base)));
  as_.jumpIf(BPF_JSLT, R6, R8, below);
  as_.emit(alu64(BPF_SUB, R6, R8));
  as_.emit(alu64(BPF_DIV, R6, static_cast<int32_t>(p.step)));
  as_.jumpIf(BPF_JLT, R6, static_cast<int32_t>(p.levels), inside);
  as_.emit(mov64(R6, static_cast<int32_t>(p.levels)));
  as_.bind(inside);
  as_.emit(alu64(BPF_ADD, R6, 1));
  as_.jump(done);
  as_.bind(below);
  as_.emit(mov64(R6, 0));
  as_.bind(done);
}

// r6 = llquantize()'s bucket for the value in r6 (ir::llquantizeBucket):
// the magnitudes unrolled, their bounds as constants.
void ProgramEmitter::llquantizeBucket(const ir::AggParams& p) {
  const int32_t zero = static_cast<int32_t>(ir::llquantizeZeroBucket(p));
  Label positive = as_.newLabel(), found = as_.newLabel(), mirrored = as_.newLabel();
  // r7 = 1 when the value is negative; r6 = its magnitude (unsigned).
  as_.emit(mov64(R7, 0));
  as_.jumpIf(BPF_JSGE, R6, 0, positive);
  as_.emit(mov64(R7, 1));
  as_.emit(neg64(R6));
  as_.bind(positive);
  Label notBelow = as_.newLabel();
  as_.emit(ldImm64(R8, ir::llquantizeMagnitude(p, p.lowMagnitude).low));
  as_.jumpIf(BPF_JGE, R6, R8, notBelow);
  as_.emit(mov64(R6, zero));
  as_.jump(found);
  as_.bind(notBelow);
  int32_t first = zero + 1;
  for (uint32_t mag = p.lowMagnitude; mag <= p.highMagnitude; mag++) {
    const ir::LlquantizeMagnitude m = ir::llquantizeMagnitude(p, mag);
    Label higher = as_.newLabel();
    if (m.bounded) {
      as_.emit(ldImm64(R8, m.next));
      as_.jumpIf(BPF_JGE, R6, R8, higher);
    }
    // bucket = first + value / width - skipped
    if (m.width != 1) {
      as_.emit(ldImm64(R8, m.width));
      as_.emit(alu64(BPF_DIV, R6, R8));
    }
    as_.emit(alu64(BPF_ADD, R6, first - static_cast<int32_t>(m.skipped)));
    // Without a bound (factor^(high+1) past 64 bits) no value is above the
    // highest magnitude: the code ends here, with nothing unreachable.
    if (!m.bounded) break;
    as_.jump(found);
    as_.bind(higher);
    first += static_cast<int32_t>(m.buckets);
  }
  if (ir::llquantizeMagnitude(p, p.highMagnitude).bounded) as_.emit(mov64(R6, 2 * zero));
  as_.bind(found);
  as_.jumpIf(BPF_JEQ, R7, 0, mirrored);
  as_.emit(mov64(R8, 2 * zero));
  as_.emit(alu64(BPF_SUB, R8, R6));
  as_.emit(mov64(R6, R8));
  as_.bind(mirrored);
}

}  // namespace dtrace::codegen
