// The kernel's function symbols from /proc/kallsyms, read once per process
// on first use (the read alone takes tens of milliseconds, so only what
// needs symbols pays for it): names for addresses (%a) and addresses for
// names.
#pragma once

#include <cstdint>
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

 private:
  struct Entry {
    uint64_t address;
    std::string_view name, module;  // module empty for vmlinux
  };
  KernelSymbol symbolAt(size_t index) const;

  std::string text_;             // the file; entries point into it
  std::vector<Entry> entries_;  // by address
};

// "module`name+0xoffset" as DTrace prints a kernel address (%a), or the
// address in hex when no function contains it.
std::string kernelAddressText(uint64_t address);

}  // namespace dtrace::sym
