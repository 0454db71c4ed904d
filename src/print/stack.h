// Program counters as DTrace prints them: stack() and ustack() frames, the
// values of sym(), mod(), usym(), umod() and uaddr(), and %a, %A and %k
// in printf(). A known function is "object`function+0xoffset"; DTrace's
// fallbacks are "object`0xaddress" (an object without that symbol) and
// "0xaddress" (nothing known).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/record.h"
#include "sym/user_symbols.h"

namespace dtrace::print {

// What naming program counters needs beyond the kernel's symbols.
struct SymbolContext {
  sym::UserSymbols* user = nullptr;  // null: user addresses print in hex
  int stackIndent = 14;              // the stackindent option
  int targetPid = 0;                 // $target: whose address space %A names
  bool demangle = true;              // -x demangle: C++ names as the source wrote them
};

// "0x1f": addresses and offsets as DTrace prints them.
std::string hexText(uint64_t value);

// A program counter and what names it.
struct NamedAddress {
  uint64_t address = 0;
  std::string object;    // the module or object file; empty when unknown
  std::string function;  // empty when no symbol holds the address
  uint64_t offset = 0;   // from the function's start

  // "object`function+0x1f" ("object`function" at its start), else
  // "object`0xaddress", else "0xaddress".
  std::string text() const;
  // The function without the offset (sym(), usym()), else text().
  std::string symbolText() const;
};

NamedAddress nameKernelAddress(uint64_t pc);
NamedAddress nameUserAddress(const SymbolContext& symbols, int pid, uint64_t pc);
// Their text(), as %a and %A print it.
std::string kernelAddressName(uint64_t pc);
std::string userAddressName(const SymbolContext& symbols, int pid, uint64_t pc);

// The frames of a stack() or ustack() field, leaf first, up to the first
// zero.
std::vector<NamedAddress> stackFrames(const ir::Field& field, const uint8_t* data,
                                      const SymbolContext& symbols);
// The address a sym(), mod(), usym(), umod() or uaddr() field holds, named.
NamedAddress symbolFieldAddress(const ir::Field& field, const uint8_t* data,
                                const SymbolContext& symbols);
// What such a field prints as: "vmlinux`ksys_read" for sym(), "vmlinux"
// for mod() (the address when nothing is known), the offset too for uaddr().
std::string symbolFieldText(const ir::Field& field, const NamedAddress& named);

// A stack() or ustack() field: a newline, then one line per frame,
// indented by `indent` spaces, its name formatted by `format` ("%s", or
// "%-20s" for printf's %-20k).
void appendStack(std::string& out, const ir::Field& field, const uint8_t* data,
                 const SymbolContext& symbols, int indent, const std::string& format);

// A field of one of the code-address kinds as a record or an aggregation
// key prints it: stacks as appendStack does with the stackindent option,
// the symbol functions' values in "  %-50s".
void appendCodeAddress(std::string& out, const ir::Field& field, const uint8_t* data,
                       const SymbolContext& symbols);

}  // namespace dtrace::print
