#include "print/stack.h"

#include <cinttypes>
#include <cstring>

#include "print/appendf.h"
#include "sym/kernel_symbols.h"

namespace dtrace::print {

namespace {

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%" PRIx64, value);
  return text;
}

uint64_t word(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// "object`" before a name, when the object is known.
std::string objectPrefix(const sym::UserSymbol& s) {
  return s.object.empty() ? std::string() : s.object + "`";
}

// What sym(), mod(), usym(), umod() name: the function (or object)
// without an offset, else DTrace's fallbacks.
std::string symbolName(const ir::Field& field, const uint8_t* p, const SymbolContext& symbols) {
  if (!ir::isUserCodeKind(field.kind)) {  // sym(), func(), mod()
    const uint64_t pc = word(p);
    std::optional<sym::KernelSymbol> s = sym::KernelSymbols::get().containing(pc);
    if (!s) return hex(pc);
    return field.kind == ir::DataKind::KernelModule ? s->module : s->module + "`" + s->name;
  }
  const int pid = static_cast<int>(word(p));
  const uint64_t pc = word(p + ir::kUserPidBytes);
  if (field.kind == ir::DataKind::UserAddress || !symbols.user) {
    return userAddressName(symbols, pid, pc);
  }
  const sym::UserSymbol s = symbols.user->lookup(pid, pc);
  if (field.kind == ir::DataKind::UserModule) return s.object.empty() ? hex(pc) : s.object;
  if (s.function.empty()) return userAddressName(symbols, pid, pc);
  return objectPrefix(s) + s.function;
}

}  // namespace

std::string kernelAddressName(uint64_t pc) { return sym::kernelAddressText(pc); }

std::string userAddressName(const SymbolContext& symbols, int pid, uint64_t pc) {
  if (!symbols.user) return hex(pc);
  const sym::UserSymbol s = symbols.user->lookup(pid, pc);
  if (s.function.empty()) return s.object.empty() ? hex(pc) : s.object + "`" + hex(pc);
  std::string name = objectPrefix(s) + s.function;
  if (pc > s.functionAddress) name += "+" + hex(pc - s.functionAddress);
  return name;
}

void appendStack(std::string& out, const ir::Field& field, const uint8_t* data,
                 const SymbolContext& symbols, int indent, const std::string& format) {
  const uint8_t* p = data + field.offset;
  const uint8_t* end = p + field.size;
  int pid = 0;
  const bool user = ir::isUserCodeKind(field.kind);
  if (user) {
    pid = static_cast<int>(word(p));
    p += ir::kUserPidBytes;
  }
  out += '\n';
  for (; p + 8 <= end; p += 8) {
    const uint64_t pc = word(p);
    if (pc == 0) break;
    const std::string name = user ? userAddressName(symbols, pid, pc) : kernelAddressName(pc);
    out.append(static_cast<size_t>(indent > 0 ? indent : 0), ' ');
    appendf(out, format.c_str(), name.c_str());
    out += '\n';
  }
}

void appendCodeAddress(std::string& out, const ir::Field& field, const uint8_t* data,
                       const SymbolContext& symbols) {
  if (field.kind == ir::DataKind::KernelStack || field.kind == ir::DataKind::UserStack) {
    appendStack(out, field, data, symbols, symbols.stackIndent, "%s");
    return;
  }
  appendf(out, "  %-50s", symbolName(field, data + field.offset, symbols).c_str());
}

}  // namespace dtrace::print
