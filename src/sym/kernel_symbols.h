// The kernel's function symbols from /proc/kallsyms, read once per process
// on first use (the read alone takes tens of milliseconds, so only what
// needs symbols pays for it): names for addresses (%a) and addresses for
// names.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dtrace::sym {

struct KernelSymbol {
  std::string module;  // "vmlinux" or the kernel module's name
  std::string name;
  uint64_t address = 0;
  uint64_t end = 0;  // the next symbol's address: where this function ends at most
};

class KernelSymbols {
 public:
  // The table of this machine; empty if kallsyms hides its addresses.
  static const KernelSymbols& get();

  // The function containing `address`.
  std::optional<KernelSymbol> containing(uint64_t address) const;
  // A vmlinux function by name.
  std::optional<KernelSymbol> find(std::string_view name) const;
  // The lowest function address of a module ("vmlinux" or a kernel
  // module's name): what mod() keys of that module merge on.
  std::optional<uint64_t> moduleAddress(std::string_view module) const;

  // The table of kallsyms text ("address type name\t[module]" lines). Its
  // entries are views of the text it keeps: a table is never copied.
  static std::unique_ptr<const KernelSymbols> parse(std::string text);

 private:
  struct Entry {
    uint64_t address;
    std::string_view name, module;  // module empty for vmlinux
  };
  KernelSymbol symbolAt(size_t index) const;

  std::string text_;             // the file; entries point into it
  std::vector<Entry> entries_;  // by address
  std::map<std::string_view, uint64_t, std::less<>> moduleAddresses_;  // "" for vmlinux
};

}  // namespace dtrace::sym
