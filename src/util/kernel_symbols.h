// The kernel's function symbols from /proc/kallsyms, read once per process
// on first use (a read takes tens of milliseconds, so only what needs
// symbols pays for it): names for addresses (%a) and addresses for names.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace dtrace::util {

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
  std::optional<KernelSymbol> find(const std::string& name) const;

 private:
  struct Entry {
    std::string module, name;
  };
  std::optional<KernelSymbol> at(std::map<uint64_t, Entry>::const_iterator it) const;

  std::map<uint64_t, Entry> byAddress_;
  std::map<std::string, uint64_t> vmlinuxByName_;
};

// "module`name+0xoffset" as DTrace prints a kernel address (%a), or the
// address in hex when no function contains it.
std::string kernelAddressText(uint64_t address);

}  // namespace dtrace::util
