#include "bpf/helpers.h"

#include <linux/bpf.h>

#include <array>

namespace dtrace::bpf {
namespace {

// Generated from the kernel header's own list, so the table and the enum
// can never disagree.
#define DTRACE_BPF_HELPER_NAME(x) #x
constexpr std::array<const char*, __BPF_FUNC_MAX_ID> kHelperNames = {
    __BPF_FUNC_MAPPER(DTRACE_BPF_HELPER_NAME)};
#undef DTRACE_BPF_HELPER_NAME

}  // namespace

std::string_view helperName(int32_t helperId) {
  if (helperId <= 0 || static_cast<size_t>(helperId) >= kHelperNames.size()) return {};
  const char* name = kHelperNames[helperId];
  return name != nullptr ? name : std::string_view();
}

std::optional<int32_t> helperId(std::string_view name) {
  if (name.starts_with("bpf_")) name.remove_prefix(4);
  for (size_t i = 1; i < kHelperNames.size(); ++i) {
    if (kHelperNames[i] != nullptr && kHelperNames[i] == name) return static_cast<int32_t>(i);
  }
  return std::nullopt;
}

}  // namespace dtrace::bpf
