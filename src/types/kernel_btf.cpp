#include "types/kernel_btf.h"

#include <string>

namespace dtrace::types {

using bpf::Btf;
using bpf::BtfKind;
using bpf::BtfType;

KernelBtf& KernelBtf::instance() {
  static KernelBtf btf;
  return btf;
}

Result<const Btf*> KernelBtf::load() {
  if (!btf_) btf_.emplace(Btf::loadVmlinux());
  if (!*btf_) {
    return makeError("kernel type information (BTF) is not available: " + btf_->error().message);
  }
  return &btf_->value();
}

namespace {

// The bit offset of `member` in the struct or union `t`, looking through
// anonymous struct and union members as C does (sk_buff's protocol sits
// in one); -1 when there is none.
int64_t memberBits(const Btf& btf, const BtfType& t, const char* member) {
  for (const bpf::BtfMember& m : btf.members(t)) {
    if (!m.name.empty()) {
      if (m.name == member) return m.bitOffset;
      continue;
    }
    std::optional<BtfType> inner = btf.type(m.type);
    while (inner && (inner->kind == BtfKind::Const || inner->kind == BtfKind::Volatile ||
                     inner->kind == BtfKind::Typedef)) {
      inner = btf.type(inner->type);
    }
    if (!inner || !inner->isComposite()) continue;
    const int64_t within = memberBits(btf, *inner, member);
    if (within >= 0) return m.bitOffset + within;
  }
  return -1;
}

}  // namespace

Result<const bpf::BtfNameIndex*> KernelBtf::nameIndex() {
  if (!index_) index_.emplace(bpf::BtfNameIndex::openVmlinux());
  if (!*index_) return index_->error();
  return &index_->value();
}

std::optional<uint32_t> KernelBtf::typeId(const char* name, BtfKind kind) {
  auto [it, fresh] = typeIds_.try_emplace({name, kind});
  if (fresh) {
    if (auto index = nameIndex()) it->second = (*index)->find(name, kind);
  }
  return it->second;
}

Result<uint32_t> KernelBtf::memberOffset(const char* type, const char* member) {
  if (std::optional<uint32_t> id = typeId(type, BtfKind::Struct)) {  // a direct member, no parse
    if (std::optional<uint32_t> bits = (*nameIndex())->memberBitOffset(*id, member)) {
      return *bits / 8;
    }
  }
  auto loaded = load();
  if (!loaded) return loaded.error();
  const Btf& btf = **loaded;
  std::optional<uint32_t> id = btf.find(type, BtfKind::Struct);
  std::optional<BtfType> found = id ? btf.type(*id) : std::nullopt;
  if (!found) return makeError(std::string("kernel type struct ") + type + " not found in BTF");
  const int64_t bits = memberBits(btf, *found, member);
  if (bits < 0) return makeError(std::string("struct ") + type + " has no member " + member);
  return static_cast<uint32_t>(bits / 8);
}

}  // namespace dtrace::types
