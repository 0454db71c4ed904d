#include "print/stack.h"

#include <cinttypes>
#include <cstdio>

#include "print/appendf.h"
#include "print/demangle.h"
#include "print/printf.h"
#include "sym/kernel_symbols.h"

namespace dtrace::print {

namespace {

uint64_t word(const uint8_t* p) { return readUnsigned(p, 8); }

}  // namespace

std::string hexText(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%" PRIx64, value);
  return text;
}

std::string NamedAddress::text() const {
  const std::string prefix = object.empty() ? "" : object + "`";
  if (function.empty()) return prefix + hexText(address);
  return prefix + function + (offset ? "+" + hexText(offset) : "");
}

std::string NamedAddress::symbolText() const {
  return function.empty() ? text() : (object.empty() ? "" : object + "`") + function;
}

NamedAddress nameKernelAddress(uint64_t pc) {
  NamedAddress n;
  n.address = pc;
  if (std::optional<sym::KernelSymbol> s = sym::KernelSymbols::get().containing(pc)) {
    n.object = s->module;
    n.function = s->name;
    n.offset = pc - s->address;
  }
  return n;
}

NamedAddress nameUserAddress(const SymbolContext& symbols, int pid, uint64_t pc) {
  NamedAddress n;
  n.address = pc;
  if (!symbols.user) return n;
  sym::UserSymbol s = symbols.user->lookup(pid, pc);
  n.object = std::move(s.object);
  n.function = symbols.demangle ? demangledName(s.function) : std::move(s.function);
  if (!n.function.empty()) n.offset = pc - s.functionAddress;
  return n;
}

std::string kernelAddressName(uint64_t pc) { return nameKernelAddress(pc).text(); }

std::string userAddressName(const SymbolContext& symbols, int pid, uint64_t pc) {
  return nameUserAddress(symbols, pid, pc).text();
}

std::vector<NamedAddress> stackFrames(const ir::Field& field, const uint8_t* data,
                                      const SymbolContext& symbols) {
  const uint8_t* p = data + field.offset;
  const uint8_t* end = p + field.size;
  const bool user = ir::isUserCodeKind(field.kind);
  const int pid = user ? static_cast<int>(word(p)) : 0;
  if (user) p += ir::kUserPidBytes;
  std::vector<NamedAddress> frames;
  for (; p + 8 <= end; p += 8) {
    const uint64_t pc = word(p);
    if (pc == 0) break;
    frames.push_back(user ? nameUserAddress(symbols, pid, pc) : nameKernelAddress(pc));
  }
  return frames;
}

NamedAddress symbolFieldAddress(const ir::Field& field, const uint8_t* data,
                                const SymbolContext& symbols) {
  const uint8_t* p = data + field.offset;
  if (!ir::isUserCodeKind(field.kind)) return nameKernelAddress(word(p));
  return nameUserAddress(symbols, static_cast<int>(word(p)), word(p + ir::kUserPidBytes));
}

std::string symbolFieldText(const ir::Field& field, const NamedAddress& named) {
  switch (field.kind) {
    case ir::DataKind::KernelModule:
    case ir::DataKind::UserModule:
      return named.object.empty() ? hexText(named.address) : named.object;
    case ir::DataKind::UserAddress:
      return named.text();
    default:  // sym(), func(), usym(), ufunc()
      return named.symbolText();
  }
}

void appendStack(std::string& out, const ir::Field& field, const uint8_t* data,
                 const SymbolContext& symbols, int indent, const std::string& format) {
  out += '\n';
  for (const NamedAddress& frame : stackFrames(field, data, symbols)) {
    out.append(static_cast<size_t>(indent > 0 ? indent : 0), ' ');
    appendf(out, format.c_str(), frame.text().c_str());
    out += '\n';
  }
}

void appendCodeAddress(std::string& out, const ir::Field& field, const uint8_t* data,
                       const SymbolContext& symbols) {
  if (field.kind == ir::DataKind::KernelStack || field.kind == ir::DataKind::UserStack) {
    appendStack(out, field, data, symbols, symbols.stackIndent, "%s");
    return;
  }
  const std::string text = symbolFieldText(field, symbolFieldAddress(field, data, symbols));
  appendf(out, "  %-50s", text.c_str());
}

}  // namespace dtrace::print
