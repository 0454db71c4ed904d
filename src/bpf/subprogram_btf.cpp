#include "bpf/subprogram_btf.h"

#include <bpf/btf.h>
#include <linux/btf.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <set>
#include <string>

namespace dtrace::bpf {

namespace {

bool isLocalCall(const Insn& insn) {
  return insn.code == (BPF_JMP | BPF_CALL) && insn.src_reg == BPF_PSEUDO_CALL;
}
bool isFunctionAddress(const Insn& insn) {
  return insn.code == (BPF_LD | BPF_DW | BPF_IMM) && insn.src_reg == BPF_PSEUDO_FUNC;
}

}  // namespace

Result<SubprogramBtf> describeSubprograms(std::span<const Insn> insns) {
  std::set<uint32_t> starts = {0};
  bool takesAddress = false;
  for (size_t i = 0; i < insns.size(); i++) {
    if (isLocalCall(insns[i]) || isFunctionAddress(insns[i])) {
      takesAddress |= isFunctionAddress(insns[i]);
      starts.insert(static_cast<uint32_t>(static_cast<int64_t>(i) + insns[i].imm + 1));
    }
  }
  SubprogramBtf out;
  if (!takesAddress) return out;

  std::unique_ptr<btf, void (*)(btf*)> types(btf__new_empty(), btf__free);
  if (!types) return makeError(std::string("cannot build BTF: ") + std::strerror(errno));
  // long f(long a, long b): wide enough for a program's context pointer and
  // a callback's (index, context) arguments; static functions are checked
  // by the verifier as part of their caller, so the prototype is advisory.
  const int longType = btf__add_int(types.get(), "long", 8, BTF_INT_SIGNED);
  const int proto = btf__add_func_proto(types.get(), longType);
  if (longType < 0 || proto < 0 || btf__add_func_param(types.get(), "a", longType) < 0 ||
      btf__add_func_param(types.get(), "b", longType) < 0) {
    return makeError("cannot build BTF function prototype");
  }
  for (uint32_t start : starts) {
    const std::string name = "f" + std::to_string(start);
    const int func = btf__add_func(types.get(), name.c_str(), BTF_FUNC_STATIC, proto);
    if (func < 0) return makeError("cannot build BTF function " + name);
    out.funcInfo.push_back({.insn_off = start, .type_id = static_cast<uint32_t>(func)});
  }
  if (btf__load_into_kernel(types.get()) != 0) {
    return makeError(std::string("cannot load BTF for subprograms: ") + std::strerror(errno));
  }
  out.btf = Fd(dup(btf__fd(types.get())));
  return out;
}

}  // namespace dtrace::bpf
