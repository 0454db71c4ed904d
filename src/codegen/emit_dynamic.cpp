// Dynamic variables: associative arrays (a[k1, k2]) and thread-locals
// (self->x), each in its own hash map (named directly, or found in an
// array of maps: map_sharing.h), or for a scalar thread-local its own
// task-local storage (DynamicLayout::perTask). As in DTrace, an element
// that was never stored reads as 0 (a string as NULL, see
// dynamicStringInto), storing 0 (or NULL) deletes it (a per-task element
// is cleared: it reads as 0 all the same), and a store that finds the map
// full is counted as a dynamic variable drop.
#include "codegen/emitter.h"
#include "sema/symbols.h"

namespace dtrace::codegen {

using namespace bpf;
using ast::Expr;

// Builds the key of `target` in this nesting level's key area and returns
// its offset in scratch. A key expression may itself read a dynamic
// variable (a[b[i]]): that key is built one level deeper.
int32_t ProgramEmitter::dynamicKey(const Expr& target, const sema::Variable& v) {
  if (dynamicDepth_ >= layout_.dynamicKeyLevels) {
    fail("dynamic variable keys are nested too deeply");
    return static_cast<int32_t>(layout_.dynamicKeyOffset);
  }
  const DynamicLayout& d = layout_.dynamics.at(v.dynamicId);
  const int32_t key =
      static_cast<int32_t>(layout_.dynamicKeyOffset + dynamicDepth_ * layout_.dynamicKeySize);
  if (d.perTask) return key;  // the task is the key
  dynamicDepth_++;
  for (uint32_t off = 0; off < d.keySize; off += 8) {
    as_.emit(st(Size::DW, R9, static_cast<int16_t>(key + off), 0));
  }
  if (v.kind == sema::Variable::Kind::ThreadLocal) {
    contextPidTgid();
    as_.emit(stx(Size::DW, R9, static_cast<int16_t>(key), R0));
  }
  if (v.isKeyed()) {
    for (size_t i = 0; i < d.keys.size(); i++) {
      storeField(*target.operands[i + 1], d.keys[i], R9, key);
    }
  }
  dynamicDepth_--;
  return key;
}

void ProgramEmitter::dynamicLookup(const sema::Variable& v, int32_t key) {
  if (layout_.dynamics.at(v.dynamicId).perTask) {
    taskElement(maps_.dynamics.at(v.dynamicId), false);
    return;
  }
  mapLookup(maps_.dynamics.at(v.dynamicId), key);
}

void ProgramEmitter::taskElement(const MapRef& map, bool create) {
  as_.emit(ldx(Size::DW, R2, R10, kTaskSlot));
  as_.emit(ldMapFd(R1, map.fd));
  as_.emit(mov64(R3, 0));
  as_.emit(mov64(R4, create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0));
  as_.emit(call(BPF_FUNC_task_storage_get));
}

// A member of a struct in a dynamic variable (a[k].m) is read from the
// element the root expression (a[k]) names.
void ProgramEmitter::loadDynamic(const Expr& target) {
  const sema::Variable& v = *target.variable;
  const Expr& root = target.storageRoot ? *target.storageRoot : target;
  dynamicLookup(v, dynamicKey(root, v));
  Label done = as_.newLabel();
  as_.emit(mov64(R6, 0));
  as_.jumpIf(BPF_JEQ, R0, 0, done);
  if (target.storageOffset)
    as_.emit(alu64(BPF_ADD, R0, static_cast<int32_t>(target.storageOffset)));
  addVariableIndexes(R0, target);
  loadFrom(R0, target);
  as_.bind(done);
}

// r0 = the address of the member or element `target` names inside its
// dynamic variable's element, which storing to a member creates
// (zero-filled) if it is new; 0 if the map is full (counted as a drop).
// Only storing 0 to a whole scalar variable frees it.
void ProgramEmitter::dynamicMemberAddress(const Expr& target) {
  const sema::Variable& v = *target.variable;
  const int32_t key = dynamicKey(*target.storageRoot, v);
  const MapRef& map = maps_.dynamics.at(v.dynamicId);
  Label have = as_.newLabel(), done = as_.newLabel();
  mapLookup(map, key);
  as_.jumpIf(BPF_JNE, R0, 0, have);
  const int32_t val = static_cast<int32_t>(layout_.dynamicValueOffset);
  const uint32_t valueSize = layout_.dynamics.at(v.dynamicId).valueSize;
  for (uint32_t off = 0; off < valueSize; off += 8) {
    as_.emit(st(Size::DW, R9, static_cast<int16_t>(val + off), 0));
  }
  mapUpdate(map, key, val, BPF_NOEXIST);
  mapLookup(map, key);
  as_.jumpIf(BPF_JNE, R0, 0, have);
  bumpCounter(offsetof(Counters, dynamicDrops));
  as_.emit(mov64(R0, 0));
  as_.jump(done);
  as_.bind(have);
  if (target.storageOffset)
    as_.emit(alu64(BPF_ADD, R0, static_cast<int32_t>(target.storageOffset)));
  addVariableIndexes(R0, target);
  as_.bind(done);
}

void ProgramEmitter::storeDynamicMember(const Expr& target) {
  const int16_t slot = pushSlot();
  as_.emit(stx(Size::DW, R10, slot, R6));
  dynamicMemberAddress(target);
  Label done = as_.newLabel();
  as_.emit(ldx(Size::DW, R6, R10, slot));
  as_.jumpIf(BPF_JEQ, R0, 0, done);
  storeTo(R0, target);
  as_.bind(done);
  popSlot();
}

void ProgramEmitter::storeDynamic(const Expr& target) {
  const sema::Variable& v = *target.variable;
  if (target.storageRoot) {
    storeDynamicMember(target);
    return;
  }
  int16_t slot = pushSlot();
  as_.emit(stx(Size::DW, R10, slot, R6));
  const int32_t key = dynamicKey(target, v);
  as_.emit(ldx(Size::DW, R6, R10, slot));
  popSlot();
  const int32_t val = static_cast<int32_t>(layout_.dynamicValueOffset);
  as_.emit(stx(Size::DW, R9, static_cast<int16_t>(val), R6));  // the whole register
  storeOrDelete(v, key, R6);
}

void ProgramEmitter::deleteDynamic(const Expr& target) {
  const sema::Variable& v = *target.variable;
  const int32_t key = dynamicKey(target, v);
  as_.emit(mov64(R6, 0));
  storeOrDelete(v, key, R6);
}

// Storing 0 deletes the element. A word stored to an element that exists
// is written in place, which saves the map a new element and the freeing
// of the old one (self->ts = timestamp on every call).
void ProgramEmitter::storeOrDelete(const sema::Variable& v, int32_t key, Reg present) {
  const MapRef& map = maps_.dynamics.at(v.dynamicId);
  const int32_t val = static_cast<int32_t>(layout_.dynamicValueOffset);
  Label store = as_.newLabel(), fresh = as_.newLabel(), done = as_.newLabel();
  if (layout_.dynamics.at(v.dynamicId).perTask) {
    // Storing 0 clears the element if the thread has one; any other value
    // is written to the element, made first if the thread has none.
    as_.jumpIf(BPF_JNE, present, 0, store);
    taskElement(map, false);
    as_.jumpIf(BPF_JEQ, R0, 0, done);
    as_.emit(st(Size::DW, R0, 0, 0));
    as_.jump(done);
    as_.bind(store);
    taskElement(map, true);
    as_.jumpIf(BPF_JNE, R0, 0, fresh);
    bumpCounter(offsetof(Counters, dynamicDrops));
    as_.jump(done);
    as_.bind(fresh);
    as_.emit(ldx(Size::DW, R1, R9, static_cast<int16_t>(val)));
    as_.emit(stx(Size::DW, R0, 0, R1));
    as_.bind(done);
    return;
  }
  as_.jumpIf(BPF_JNE, present, 0, store);
  mapDelete(map, key);
  as_.jump(done);
  as_.bind(store);
  if (layout_.dynamics.at(v.dynamicId).ownValueSize == 8) {
    mapLookup(map, key);
    as_.jumpIf(BPF_JEQ, R0, 0, fresh);
    as_.emit(ldx(Size::DW, R1, R9, static_cast<int16_t>(val)));
    as_.emit(stx(Size::DW, R0, 0, R1));
    as_.jump(done);
  }
  as_.bind(fresh);
  mapUpdate(map, key, val, BPF_ANY);
  as_.jumpIf(BPF_JEQ, R0, 0, done);
  bumpCounter(offsetof(Counters, dynamicDrops));
  as_.bind(done);
}

// An unset string element is DTrace's NULL string: reading its characters
// is an invalid address fault (0), but where `unsetIsEmpty` (compared,
// assigned). A string member of an unset element reads as "", as its
// other members read as 0.
void ProgramEmitter::dynamicStringInto(const Expr& target, Reg base, int32_t offset, uint32_t size,
                                       const UnsetStringRead& unset) {
  const sema::Variable& v = *target.variable;
  const Expr& root = target.storageRoot ? *target.storageRoot : target;
  dynamicLookup(v, dynamicKey(root, v));
  Label missing = as_.newLabel(), done = as_.newLabel();
  as_.jumpIf(BPF_JEQ, R0, 0, missing);
  if (target.storageOffset)
    as_.emit(alu64(BPF_ADD, R0, static_cast<int32_t>(target.storageOffset)));
  addVariableIndexes(R0, target);
  as_.emit(mov64(R8, R0));
  copyString(R8, 0, target.type->size, base, offset, size);
  as_.jump(done);
  as_.bind(missing);
  // A member of an unset element reads as 0 does; a missing associative
  // array element is a zero-filled string, as illumos's dt_cg_assoc_op
  // gives a by-reference element; only a thread-local scalar reads as NULL.
  if (target.storageRoot || v.isKeyed()) {
    literalInto("", base, offset, size);
  } else {
    unsetStringInto(unset, base, offset, size);
  }
  as_.bind(done);
}

void ProgramEmitter::storeDynamicString(const Expr& target, const Expr& value) {
  const sema::Variable& v = *target.variable;
  if (target.storageRoot) {  // a string member: written in place
    dynamicMemberAddress(target);
    Label done = as_.newLabel();
    as_.jumpIf(BPF_JEQ, R0, 0, done);
    as_.emit(mov64(R7, R0));
    stringValueInto(value, R7, 0, target.type->size);
    as_.bind(done);
    return;
  }
  if (!value.type->isString() && !value.type->isCharArray()) {  // NULL: the checker let 0 through
    deleteDynamic(target);
    return;
  }
  // A NULL string stored frees the element, as storing 0 does in DTrace;
  // "" is a string: it is stored.
  const int32_t val = static_cast<int32_t>(layout_.dynamicValueOffset);
  const int16_t wasNull = stringValueNotingNull(value, R9, val, v.type->size);
  const int32_t key = dynamicKey(target, v);
  as_.emit(ldx(Size::DW, R1, R10, wasNull));
  popSlot();
  as_.emit(alu64(BPF_XOR, R1, 1));
  storeOrDelete(v, key, R1);
}

}  // namespace dtrace::codegen
