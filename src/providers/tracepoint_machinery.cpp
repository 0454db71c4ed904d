#include "providers/tracepoint_machinery.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace dtrace::providers {

namespace {

// Kernel text symbols by address, from one read of /proc/kallsyms (module
// symbols, which carry a [module] suffix, are left out: the machinery is
// all in vmlinux).
struct KernelText {
  std::map<uint64_t, std::string> byAddress;
  std::map<std::string, uint64_t> byName;
};

const KernelText& kernelText() {
  static KernelText text;
  static std::once_flag once;
  std::call_once(once, [] {
    FILE* f = std::fopen("/proc/kallsyms", "re");
    if (f == nullptr) return;
    char line[512];
    while (std::fgets(line, sizeof line, f) != nullptr) {
      char* end = nullptr;
      const uint64_t addr = std::strtoull(line, &end, 16);
      char type = 0;
      char name[256];
      if (std::sscanf(end, " %c %255s", &type, name) != 2) continue;
      if (addr == 0 || std::strchr(end, '[') != nullptr) continue;
      if (type != 't' && type != 'T') continue;
      text.byAddress.emplace(addr, name);
      text.byName.emplace(name, addr);
    }
    std::fclose(f);
  });
  return text;
}

// [address of `name`, address of the next symbol), or nothing.
bool functionRange(const KernelText& text, const std::string& name, AddressRange& range) {
  auto it = text.byName.find(name);
  if (it == text.byName.end()) return false;
  auto next = text.byAddress.upper_bound(it->second);
  if (next == text.byAddress.end()) return false;
  range = {it->second, next->first};
  return true;
}

}  // namespace

std::vector<AddressRange> tracepointMachinery(const std::string& tracepoint) {
  const KernelText& text = kernelText();
  auto textStart = text.byName.find("_stext");
  auto textEnd = text.byName.find("_etext");
  AddressRange stub;
  if (textStart == text.byName.end() || textEnd == text.byName.end() ||
      !functionRange(text, "__bpf_trace_" + tracepoint, stub)) {
    return {};
  }
  std::vector<AddressRange> ranges = {{0, textStart->second}, {textEnd->second, ~0ull}, stub};
  AddressRange range;
  if (functionRange(text, "__traceiter_" + tracepoint, range)) ranges.push_back(range);
  // bpf_trace_run1..12 are neighbours: one range from the first to past the last.
  AddressRange first, last;
  if (functionRange(text, "bpf_trace_run1", first) &&
      functionRange(text, "bpf_trace_run12", last) && last.end - first.start < 0x10000) {
    ranges.push_back({first.start, last.end});
  } else {
    for (int n = 1; n <= 12; n++) {
      if (functionRange(text, "bpf_trace_run" + std::to_string(n), range)) ranges.push_back(range);
    }
  }
  return ranges;
}

}  // namespace dtrace::providers
