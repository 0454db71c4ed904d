// Which memory a D program may write through a pointer, as illumos's
// dtrace_canstore decides: scratch memory (the clause's whole alloca area,
// not only what alloca() has given out: `t = copyin(p, n); t[n] = 0;`
// ends a string), the bytes of global and clause-local variables
// (dtrace_canstore_statvar), and the value of a dynamic variable's element,
// never its key. Anything else, kernel memory first of all, is an invalid
// address. The verifier lets a program write only through a map-value
// pointer whose reach it can bound: each region's offset is computed as a
// number, bounded, and only then added to the region's map-value pointer.
#include "codegen/emitter.h"

namespace dtrace::codegen {

using namespace bpf;

namespace {
// The words an element's search shares with its map callback.
enum StoreWord { kAddressWord, kOffsetWord, kFoundWord };
}  // namespace

int16_t ProgramEmitter::storeWord(int word) const {
  return static_cast<int16_t>(layout_.storeStateOffset + 8 * static_cast<uint32_t>(word));
}

bool ProgramEmitter::writablePointer(Reg address, uint32_t size, uint32_t alignment) {
  const int16_t addressSlot = pushSlot();
  as_.emit(stx(Size::DW, R10, addressSlot, address));
  Label found = as_.newLabel(), bad = as_.newLabel(), done = as_.newLabel();
  bool reachable = writableStatic(addressSlot, size, found);
  for (uint32_t id : layout_.addressedDynamics) {
    const uint32_t valueSize = layout_.dynamics.at(id).ownValueSize;
    if (valueSize < size) continue;
    Label next = as_.newLabel();
    findElement(id, addressSlot, next);
    as_.jumpIf(BPF_JEQ, R0, 0, bad);  // freed since it was found
    as_.emit(ldx(Size::DW, R3, R9, storeWord(kOffsetWord)));
    as_.jumpIf(BPF_JGT, R3, static_cast<int32_t>(valueSize - size), bad);
    as_.emit(mov64(R7, R0));
    as_.emit(alu64(BPF_ADD, R7, R3));
    as_.jump(found);
    as_.bind(next);
    reachable = true;
  }
  as_.bind(bad);
  as_.emit(ldx(Size::DW, R1, R10, addressSlot));
  fault(ir::Fault::BadAddr, R1);
  if (!reachable) {  // no code may follow that no jump reaches
    popSlot();
    return false;
  }
  as_.bind(found);
  // The store's own alignment, checked once its place is known to be
  // writable (as the STH, STW and STX of dtrace_dif_emulate do).
  if (alignment > 1) {
    as_.emit(ldx(Size::DW, R1, R10, addressSlot));
    as_.emit(alu64(BPF_AND, R1, static_cast<int32_t>(alignment - 1)));
    as_.jumpIf(BPF_JEQ, R1, 0, done);
    as_.emit(ldx(Size::DW, R1, R10, addressSlot));
    fault(ir::Fault::BadAlign, R1);
  }
  as_.bind(done);
  as_.emit(mov64(R0, R7));
  as_.emit(ldx(Size::DW, address, R10, addressSlot));
  popSlot();
  return true;
}

// r7 = a map-value pointer to the `size` bytes at the D address in
// addressSlot, and a jump to `found`, when they lie in one static region:
// this clause's alloca'd scratch, or one addressed global or clause-local
// variable. False when no region could hold them.
bool ProgramEmitter::writableStatic(int16_t addressSlot, uint32_t size, Label found) {
  bool any = false;
  // Jumps to `next` unless [offset, offset + size) lies in the region of
  // `length` bytes at r7; r3 = the offset, bounded for the verifier.
  auto region = [&](uint32_t length, const std::function<void()>& loadBase) {
    if (size > length) return;
    any = true;
    Label next = as_.newLabel();
    loadBase();
    as_.emit(mov64(R0, R7));
    plainAddress(R0);
    as_.emit(ldx(Size::DW, R3, R10, addressSlot));
    as_.emit(alu64(BPF_SUB, R3, R0));
    as_.jumpIf(BPF_JGT, R3, static_cast<int32_t>(length - size), next);
    as_.emit(alu64(BPF_ADD, R7, R3));
    as_.jump(found);
    as_.bind(next);
  };
  auto inScratch = [this](uint32_t offset) {
    return [this, offset]() {
      as_.emit(mov64(R7, R9));
      as_.emit(alu64(BPF_ADD, R7, static_cast<int32_t>(offset)));
    };
  };
  // alloca()'s area, allocated or not: dtrace_canstore checks the whole
  // scratch region (loads and bcopy() stay within what was allocated:
  // dtrace_canload, dtrace_inscratch).
  if (layout_.allocaSize) region(layout_.allocaSize, inScratch(layout_.allocaOffset));
  // Variables, each on its own (dtrace_canstore_statvar).
  for (const Layout::StaticRange& v : layout_.addressedStatics) {
    if (!v.global) {
      region(v.size, inScratch(v.offset));
      continue;
    }
    region(v.size,
           [this, offset = v.offset]() { as_.emit(ldMapValue(R7, maps_.globals, offset)); });
  }
  return any;
}

// Searches dynamic variable `id`'s map for the element whose value holds
// the address in addressSlot; jumps to `missing` if none does, else
// r0 = that element's value (0 if it was freed meanwhile) and the store
// word kOffsetWord = the address's offset in it. A BPF hash map is found
// by its key, not by the address of a value: the map's elements are
// visited (bpf_for_each_map_elem) and the matching one's key kept.
void ProgramEmitter::findElement(uint32_t id, int16_t addressSlot, Label missing) {
  const MapRef& map = maps_.dynamics.at(id);
  as_.emit(ldx(Size::DW, R1, R10, addressSlot));
  as_.emit(stx(Size::DW, R9, storeWord(kAddressWord), R1));
  as_.emit(st(Size::DW, R9, storeWord(kFoundWord), 0));
  const int16_t ctx = pushSlot();  // the scratch pointer, for the callback
  as_.emit(stx(Size::DW, R10, ctx, R9));
  loadMap(map, missing);
  as_.loadFunction(R2, elementCallback(id));
  as_.emit(mov64(R3, R10));
  as_.emit(alu64(BPF_ADD, R3, ctx));
  as_.emit(mov64(R4, 0));
  as_.emit(call(BPF_FUNC_for_each_map_elem));
  popSlot();
  as_.emit(ldx(Size::DW, R1, R9, storeWord(kFoundWord)));
  as_.jumpIf(BPF_JEQ, R1, 0, missing);
  mapLookup(map, static_cast<int32_t>(layout_.dynamicKeyOffset));
}

// The callback that visits dynamic variable `id`'s elements (r6 = key,
// r7 = value): at the element whose value holds the address word, it
// notes the offset there and copies the key to the first key area. One
// per variable and program: a program has at most 256 functions.
Label ProgramEmitter::elementCallback(uint32_t id) {
  if (auto it = elementCallbacks_.find(id); it != elementCallbacks_.end()) return it->second;
  const Label callback = as_.newLabel();
  elementCallbacks_.emplace(id, callback);
  const DynamicLayout& d = layout_.dynamics.at(id);
  const uint32_t valueSize = d.ownValueSize, keySize = d.keySize;
  const auto key = static_cast<int32_t>(layout_.dynamicKeyOffset);
  auto body = [this, valueSize, keySize, key](Label stop) {
    Label next = as_.newLabel();
    as_.emit(mov64(R0, R7));
    plainAddress(R0);
    as_.emit(ldx(Size::DW, R1, R9, storeWord(kAddressWord)));
    as_.emit(alu64(BPF_SUB, R1, R0));
    as_.jumpIf(BPF_JGE, R1, static_cast<int32_t>(valueSize), next);
    as_.emit(stx(Size::DW, R9, storeWord(kOffsetWord), R1));
    for (uint32_t off = 0; off < keySize; off += 8) {
      as_.emit(ldx(Size::DW, R1, R6, static_cast<int16_t>(off)));
      as_.emit(stx(Size::DW, R9, static_cast<int16_t>(key + static_cast<int32_t>(off)), R1));
    }
    as_.emit(st(Size::DW, R9, storeWord(kFoundWord), 1));
    as_.jump(stop);
    as_.bind(next);
  };
  callbacks_.push_back({callback, body, CallbackKind::MapElement});
  return callback;
}

}  // namespace dtrace::codegen
