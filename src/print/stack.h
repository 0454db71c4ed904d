// Program counters as DTrace prints them: stack() and ustack() frames, the
// values of sym(), mod(), usym(), umod() and uaddr(), and %a, %A and %k
// in printf(). A known function is "object`function+0xoffset"; DTrace's
// fallbacks are "object`0xaddress" (an object without that symbol) and
// "0xaddress" (nothing known).
#pragma once

#include <cstdint>
#include <string>

#include "ir/record.h"
#include "sym/user_symbols.h"

namespace dtrace::print {

// What naming program counters needs beyond the kernel's symbols.
struct SymbolContext {
  sym::UserSymbols* user = nullptr;  // null: user addresses print in hex
  int stackIndent = 14;              // the stackindent option
  int targetPid = 0;                 // $target: whose address space %A names
};

// "module`function+0x1f" for a kernel address (%a, stack frames).
std::string kernelAddressName(uint64_t pc);
// "object`function+0x1f" for an address of process `pid` (%A, frames, uaddr).
std::string userAddressName(const SymbolContext& symbols, int pid, uint64_t pc);

// A stack() or ustack() field: a newline, then one line per frame,
// indented by `indent` spaces, its name formatted by `format` ("%s", or
// "%-20s" for printf's %-20k). Frames end at the first zero.
void appendStack(std::string& out, const ir::Field& field, const uint8_t* data,
                 const SymbolContext& symbols, int indent, const std::string& format);

// A field of one of the code-address kinds as a record or an aggregation
// key prints it: stacks as appendStack does with the stackindent option,
// the symbol functions' values in "  %-50s".
void appendCodeAddress(std::string& out, const ir::Field& field, const uint8_t* data,
                       const SymbolContext& symbols);

}  // namespace dtrace::print
