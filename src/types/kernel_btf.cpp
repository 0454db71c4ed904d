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

Result<uint32_t> KernelBtf::memberOffset(const char* type, const char* member) {
  auto loaded = load();
  if (!loaded) return loaded.error();
  struct btf* btf = *loaded;
  int id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
  if (id < 0) return makeError(std::string("kernel type struct ") + type + " not found in BTF");
  const struct btf_type* t = btf__type_by_id(btf, id);
  const struct btf_member* m = btf_members(t);
  for (int i = 0; i < btf_vlen(t); i++, m++) {
    const char* name = btf__name_by_offset(btf, m->name_off);
    if (name && std::strcmp(name, member) == 0) {
      return btf_member_bit_offset(t, i) / 8;
    }
  }
  return makeError(std::string("struct ") + type + " has no member " + member);
}

}  // namespace dtrace::types
