#include "providers/syscall_numbers.h"

#include <algorithm>
#include <iterator>

namespace dtrace::providers {

namespace {

struct Entry {
  const char* name;
  int number;
};

constexpr Entry kTable[] = {
#include "providers/syscall_numbers.inc"
};

// tracefs names (from SYSCALL_DEFINE) that differ from the table's names
// other than by a "new" prefix.
constexpr std::pair<std::string_view, std::string_view> kAliases[] = {
    {"sendfile64", "sendfile"},
    {"umount", "umount2"},
};

const Entry* lookup(std::string_view name) {
  for (const Entry& e : kTable) {
    if (name == e.name) return &e;
  }
  return nullptr;
}

}  // namespace

std::optional<int> syscallNumber(std::string_view name) {
  const Entry* e = lookup(name);
  if (e == nullptr) return std::nullopt;
  return e->number;
}

int maxSyscallNumber() {
  return std::max_element(std::begin(kTable), std::end(kTable),
                          [](const Entry& a, const Entry& b) { return a.number < b.number; })
      ->number;
}

std::optional<SyscallId> syscallForTracepoint(std::string_view tracefsName) {
  const Entry* e = lookup(tracefsName);
  if (e == nullptr && tracefsName.starts_with("new")) e = lookup(tracefsName.substr(3));
  for (const auto& [alias, name] : kAliases) {
    if (e == nullptr && tracefsName == alias) e = lookup(name);
  }
  if (e == nullptr) return std::nullopt;
  return SyscallId{e->name, e->number};
}

}  // namespace dtrace::providers
