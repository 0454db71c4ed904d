#include "types/kernel_btf.h"

#include <bpf/btf.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace dtrace::types {

KernelBtf& KernelBtf::instance() {
  static KernelBtf btf;
  return btf;
}

KernelBtf::~KernelBtf() {
  if (btf_) btf__free(btf_);
}

Result<struct btf*> KernelBtf::load() {
  if (!tried_) {
    tried_ = true;
    btf_ = btf__load_vmlinux_btf();
    if (!btf_) btf_ = nullptr;
  }
  if (!btf_) {
    return makeError("kernel type information (BTF) is not available: " +
                     std::string(std::strerror(errno)));
  }
  return btf_;
}

namespace {

// The bit offset of `member` in the struct or union `t`, looking through
// anonymous struct and union members as C does (sk_buff's protocol sits
// in one); -1 when there is none.
int64_t memberBits(const struct btf* btf, const struct btf_type* t, const char* member) {
  const struct btf_member* m = btf_members(t);
  for (int i = 0; i < btf_vlen(t); i++, m++) {
    const char* name = btf__name_by_offset(btf, m->name_off);
    if (name && *name) {
      if (std::strcmp(name, member) == 0) return btf_member_bit_offset(t, i);
      continue;
    }
    const struct btf_type* inner = btf__type_by_id(btf, m->type);
    while (inner && (btf_is_const(inner) || btf_is_volatile(inner) || btf_is_typedef(inner))) {
      inner = btf__type_by_id(btf, inner->type);
    }
    if (!inner || !btf_is_composite(inner)) continue;
    const int64_t within = memberBits(btf, inner, member);
    if (within >= 0) return btf_member_bit_offset(t, i) + within;
  }
  return -1;
}

}  // namespace

Result<uint32_t> KernelBtf::memberOffset(const char* type, const char* member) {
  auto loaded = load();
  if (!loaded) return loaded.error();
  struct btf* btf = *loaded;
  int id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
  if (id < 0) return makeError(std::string("kernel type struct ") + type + " not found in BTF");
  const int64_t bits = memberBits(btf, btf__type_by_id(btf, id), member);
  if (bits < 0) return makeError(std::string("struct ") + type + " has no member " + member);
  return static_cast<uint32_t>(bits / 8);
}

}  // namespace dtrace::types
