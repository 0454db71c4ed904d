#include "sym/kernel_symbols.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace dtrace::sym {

namespace {

// A function that would run past this is taken not to contain the address
// (the gap before a region kallsyms does not list).
constexpr uint64_t kMaxFunctionSize = 1 << 20;

bool isFunction(char type) { return type == 't' || type == 'T' || type == 'w' || type == 'W'; }

}  // namespace

const KernelSymbols& KernelSymbols::get() {
  static const std::unique_ptr<const KernelSymbols> table = [] {
    std::ifstream in("/proc/kallsyms");
    std::ostringstream all;
    all << in.rdbuf();
    return parse(std::move(all).str());
  }();
  return *table;
}

// Lines are "ffffffff81000000 T _stext" or "... t name\t[module]".
std::unique_ptr<const KernelSymbols> KernelSymbols::parse(std::string text) {
  auto t = std::make_unique<KernelSymbols>();
  t->text_ = std::move(text);
  std::string_view rest = t->text_;
  t->entries_.reserve(rest.size() / 40);
  while (!rest.empty()) {
    const size_t eol = std::min(rest.find('\n'), rest.size());
    std::string_view line = rest.substr(0, eol);
    rest.remove_prefix(std::min(eol + 1, rest.size()));
    const size_t space = line.find(' ');
    if (space == std::string_view::npos || line.size() < space + 4) continue;
    const uint64_t address = std::strtoull(line.data(), nullptr, 16);
    if (address == 0 || !isFunction(line[space + 1])) continue;
    std::string_view name = line.substr(space + 3);
    std::string_view module;
    if (const size_t tab = name.find('\t'); tab != std::string_view::npos) {
      module = name.substr(tab + 1);
      name = name.substr(0, tab);
      if (module.size() >= 2 && module.front() == '[') module = module.substr(1, module.size() - 2);
    }
    // __pfx_ symbols name the padding compilers put before functions: an
    // address there is a return address at the end of the function before.
    if (name.starts_with("__pfx_")) continue;
    t->entries_.push_back({address, name, module});
    auto [it, added] = t->moduleAddresses_.try_emplace(module, address);
    if (!added) it->second = std::min(it->second, address);
  }
  std::stable_sort(t->entries_.begin(), t->entries_.end(),
                   [](const Entry& a, const Entry& b) { return a.address < b.address; });
  return t;
}

std::optional<uint64_t> KernelSymbols::moduleAddress(std::string_view module) const {
  auto it = moduleAddresses_.find(module == "vmlinux" ? std::string_view() : module);
  if (it == moduleAddresses_.end()) return std::nullopt;
  return it->second;
}

KernelSymbol KernelSymbols::symbolAt(size_t index) const {
  const Entry& e = entries_[index];
  uint64_t end = e.address + kMaxFunctionSize;
  for (size_t next = index + 1; next < entries_.size(); next++) {
    if (entries_[next].address > e.address) {
      end = entries_[next].address;
      break;
    }
  }
  return {e.module.empty() ? "vmlinux" : std::string(e.module), std::string(e.name), e.address,
          end};
}

std::optional<KernelSymbol> KernelSymbols::containing(uint64_t address) const {
  auto it = std::upper_bound(entries_.begin(), entries_.end(), address,
                             [](uint64_t a, const Entry& e) { return a < e.address; });
  if (it == entries_.begin()) return std::nullopt;
  // Aliases share an address: the first listed names it.
  const uint64_t start = std::prev(it)->address;
  while (it != entries_.begin() && std::prev(it)->address == start) --it;
  KernelSymbol s = symbolAt(static_cast<size_t>(it - entries_.begin()));
  if (address >= s.end || address - s.address >= kMaxFunctionSize) return std::nullopt;
  return s;
}

std::optional<KernelSymbol> KernelSymbols::find(std::string_view name) const {
  for (size_t i = 0; i < entries_.size(); i++) {
    if (entries_[i].module.empty() && entries_[i].name == name) return symbolAt(i);
  }
  return std::nullopt;
}

}  // namespace dtrace::sym
