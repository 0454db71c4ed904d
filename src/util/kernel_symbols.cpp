#include "util/kernel_symbols.h"

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace dtrace::util {

namespace {

// A function that runs past this is not really containing the address (the
// gap before an unlisted region).
constexpr uint64_t kMaxFunctionSize = 1 << 20;

}  // namespace

const KernelSymbols& KernelSymbols::get() {
  static const KernelSymbols table = [] {
    KernelSymbols t;
    FILE* f = std::fopen("/proc/kallsyms", "re");
    if (f == nullptr) return t;
    char line[512];
    while (std::fgets(line, sizeof line, f) != nullptr) {
      char* rest = nullptr;
      const uint64_t addr = std::strtoull(line, &rest, 16);
      char type = 0;
      char name[256], module[128] = "";
      const int fields = std::sscanf(rest, " %c %255s [%127[^]]]", &type, name, module);
      if (fields < 2 || addr == 0) continue;
      if (type != 't' && type != 'T' && type != 'w' && type != 'W') continue;
      if (fields == 2) t.vmlinuxByName_.emplace(name, addr);
      Entry& e = t.byAddress_[addr];
      if (!e.name.empty()) continue;  // aliases print as the first name listed
      e.module = fields == 3 ? module : "vmlinux";
      e.name = name;
    }
    std::fclose(f);
    return t;
  }();
  return table;
}

std::optional<KernelSymbol> KernelSymbols::at(std::map<uint64_t, Entry>::const_iterator it) const {
  auto next = std::next(it);
  const uint64_t end = next == byAddress_.end() ? it->first + kMaxFunctionSize : next->first;
  return KernelSymbol{it->second.module, it->second.name, it->first, end};
}

std::optional<KernelSymbol> KernelSymbols::containing(uint64_t address) const {
  auto it = byAddress_.upper_bound(address);
  if (it == byAddress_.begin()) return std::nullopt;
  --it;
  std::optional<KernelSymbol> s = at(it);
  if (address >= s->end || address - s->address >= kMaxFunctionSize) return std::nullopt;
  return s;
}

std::optional<KernelSymbol> KernelSymbols::find(const std::string& name) const {
  auto it = vmlinuxByName_.find(name);
  if (it == vmlinuxByName_.end()) return std::nullopt;
  return at(byAddress_.find(it->second));
}

std::string kernelAddressText(uint64_t address) {
  char text[512];
  std::optional<KernelSymbol> s = KernelSymbols::get().containing(address);
  if (!s) {
    std::snprintf(text, sizeof text, "0x%" PRIx64, address);
  } else if (address == s->address) {
    std::snprintf(text, sizeof text, "%s`%s", s->module.c_str(), s->name.c_str());
  } else {
    std::snprintf(text, sizeof text, "%s`%s+0x%" PRIx64, s->module.c_str(), s->name.c_str(),
                  address - s->address);
  }
  return text;
}

}  // namespace dtrace::util
