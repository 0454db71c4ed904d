// Whole struct, union and array values: `this->t = *curthread`,
// `x = y`, `self->p = *curpsinfo`, `trace(curthread->se)`. Such a value
// is copied, never held in a register: from the memory or variable that
// holds it, or built member by member from a translator.
#include "codegen/emitter.h"
#include "sema/checker.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;
using ast::ExprKind;

bool isAggregate(const sema::Type* t) {
  return t && (t->isStruct() || (t->isArray() && !t->isCharArray()));
}

void ProgramEmitter::zeroFill(int32_t offset, uint32_t size) {
  uint32_t off = 0;
  for (; off + 8 <= size; off += 8)
    as_.emit(st(Size::DW, R9, static_cast<int16_t>(offset + off), 0));
  for (; off < size; off++) as_.emit(st(Size::B, R9, static_cast<int16_t>(offset + off), 0));
}

// base+offset = the `size` bytes at address r6; an unreadable address is a
// fault that carries it.
void ProgramEmitter::copyFromAddress(Reg base, int32_t offset, uint32_t size) {
  readableScratch(size);
  as_.emit(mov64(R1, base));
  as_.emit(alu64(BPF_ADD, R1, offset));
  as_.emit(mov64(R2, static_cast<int32_t>(size)));
  as_.emit(mov64(R3, R6));
  as_.emit(call(BPF_FUNC_probe_read_kernel));
  Label ok = as_.newLabel();
  as_.jumpIf(BPF_JEQ, R0, 0, ok);
  fault(ir::Fault::BadAddr, R6);
  as_.bind(ok);
}

void ProgramEmitter::aggregateInto(const Expr& e, int32_t offset, uint32_t size) {
  if (e.inlineValue) {
    aggregateInto(*e.inlineValue, offset, size);
    return;
  }
  if (e.translation) {
    translateInto(*e.translation, offset, size);
    return;
  }
  if (e.translatedMember) {
    bindTranslatorInput(e);
    aggregateInto(*e.translatedMember, offset, size);
    unbindTranslatorInput();
    return;
  }
  switch (e.kind) {
    case ExprKind::Assign:
      assign(e);
      aggregateInto(*e.operands[0], offset, size);
      return;
    case ExprKind::Ternary: {
      Label otherwise = as_.newLabel(), done = as_.newLabel();
      value(*e.operands[0]);
      as_.jumpIf(BPF_JEQ, R6, 0, otherwise);
      aggregateInto(*e.operands[1], offset, size);
      as_.jump(done);
      as_.bind(otherwise);
      aggregateInto(*e.operands[2], offset, size);
      as_.bind(done);
      return;
    }
    default:
      break;
  }
  if (e.inMemory) {
    address(e);
    copyFromAddress(R9, offset, size);
    return;
  }
  const sema::Variable* v = e.variable;
  if (!v || v->kind == sema::Variable::Kind::Builtin ||
      v->kind == sema::Variable::Kind::TranslatorInput) {
    fail("this struct or array value cannot be copied");
    return;
  }
  if (v->isDynamic()) {
    // An element never stored reads as all zeros.
    const Expr& root = e.storageRoot ? *e.storageRoot : e;
    dynamicLookup(*v, dynamicKey(root, *v));
    Label missing = as_.newLabel(), done = as_.newLabel();
    as_.jumpIf(BPF_JEQ, R0, 0, missing);
    as_.emit(mov64(R6, R0));
    if (e.storageOffset) as_.emit(alu64(BPF_ADD, R6, static_cast<int32_t>(e.storageOffset)));
    addVariableIndexes(R6, e);
    copyFromAddress(R9, offset, size);
    as_.jump(done);
    as_.bind(missing);
    zeroFill(offset, size);
    as_.bind(done);
    return;
  }
  staticStorage(e);
  as_.emit(mov64(R6, R1));
  copyFromAddress(R9, offset, size);
}

// Members the translator does not define are zero, as in DTrace.
void ProgramEmitter::translateInto(const Expr& xlate, int32_t offset, uint32_t size) {
  const sema::Translator& tr = *xlate.translator;
  zeroFill(offset, size);
  bindTranslatorInput(*xlate.operands[0], *tr.inputVariable);
  for (const auto& [name, memberValue] : tr.members) {
    const sema::Member* m = types_.findMember(tr.output, name);
    const int32_t at = offset + static_cast<int32_t>(m->offset);
    if (m->bitWidth) {
      fail("translator member " + name + " is a bit-field: it cannot be built");
      break;
    }
    if (m->type->isCharArray() || m->type->isString()) {
      stringInto(*memberValue, R9, at, m->type->size);
    } else if (isAggregate(m->type)) {
      aggregateInto(*memberValue, at, m->type->size);
    } else {
      value(*memberValue);
      normalize(R6, m->type);
      as_.emit(stx(sizeOf(m->type->size), R9, static_cast<int16_t>(at), R6));
    }
  }
  unbindTranslatorInput();
}

// x = y for whole struct, union or array values. A clause-local's value is
// built in place; otherwise the destination is found first (a member of a
// dynamic variable's element creates the element), then the value is built
// in the area for a value being stored and copied there.
void ProgramEmitter::assignAggregate(const Expr& e) {
  const Expr& target = *e.operands[0];
  const Expr& rhs = *e.operands[1];
  const uint32_t size = target.type->size;
  const int32_t staging = static_cast<int32_t>(layout_.dynamicValueOffset);
  const sema::Variable* v = target.inMemory ? nullptr : target.variable;
  if (v && v->kind == sema::Variable::Kind::ClauseLocal && !hasVariableIndex(target)) {
    aggregateInto(rhs, static_cast<int32_t>(v->offset + target.storageOffset), size);
    return;
  }
  if (v && v->isDynamic() && !target.storageRoot) {
    aggregateInto(rhs, staging, size);
    const int32_t key = dynamicKey(target, *v);
    as_.emit(mov64(R1, 1));  // a struct is stored, never freed
    storeOrDelete(*v, key, R1);
    return;
  }
  Label done = as_.newLabel();
  const int16_t destination = pushSlot();
  if (!v) {
    address(target);
    if (!writablePointer(R6, size)) {
      popSlot();
      return;
    }
    as_.emit(mov64(R1, R0));
  } else if (v->isDynamic()) {
    dynamicMemberAddress(target);
    as_.jumpIf(BPF_JEQ, R0, 0, done);
    as_.emit(mov64(R1, R0));
  } else {
    staticStorage(target);
  }
  as_.emit(stx(Size::DW, R10, destination, R1));
  aggregateInto(rhs, staging, size);
  as_.emit(ldx(Size::DW, R1, R10, destination));
  as_.emit(mov64(R2, static_cast<int32_t>(size)));
  as_.emit(mov64(R3, R9));
  as_.emit(alu64(BPF_ADD, R3, staging));
  as_.emit(call(BPF_FUNC_probe_read_kernel));
  as_.bind(done);
  popSlot();
}

}  // namespace dtrace::codegen
