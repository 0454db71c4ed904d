#include "types/readable_kernel_pointer.h"

#include <linux/bpf.h>

#include <optional>

#include "types/kernel_btf.h"

namespace dtrace::types {

using namespace bpf;

namespace {

constexpr const char* kCastKfunc = "bpf_rdonly_cast";

std::optional<uint32_t> kernelTypeId(const char* name, BtfKind kind) {
  return KernelBtf::instance().typeId(name, kind);
}

}  // namespace

bool canCastForLoads(const char* structName) {
  return kernelTypeId(kCastKfunc, BtfKind::Func) && kernelTypeId(structName, BtfKind::Struct);
}

void castForLoads(Assembler& a, const char* structName) {
  a.emit(mov64(R2, static_cast<int32_t>(*kernelTypeId(structName, BtfKind::Struct))));
  a.emit(kfuncCall(static_cast<int32_t>(*kernelTypeId(kCastKfunc, BtfKind::Func))));
}

void currentTaskForLoads(Assembler& a) {
  if (!canCastForLoads("task_struct")) {
    a.emit(call(BPF_FUNC_get_current_task_btf));
    return;
  }
  a.emit(call(BPF_FUNC_get_current_task));
  a.emit(mov64(R1, R0));
  castForLoads(a, "task_struct");
}

}  // namespace dtrace::types
