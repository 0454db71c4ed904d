#include "sym/usdt_arguments.h"

#include <array>
#include <optional>

namespace dtrace::sym {

namespace {

struct Register {
  int16_t offset;  // in pt_regs
  uint8_t width;   // bytes the name covers
};

struct NamedRegister {
  std::string_view name;
  Register reg;
};

// The legacy registers by every name of every width. %rip and %eip are
// only ever bases of memory operands.
constexpr std::array kLegacyRegisters = {
    NamedRegister{"rax", {kPtRegsRax, 8}},    NamedRegister{"eax", {kPtRegsRax, 4}},
    NamedRegister{"ax", {kPtRegsRax, 2}},     NamedRegister{"al", {kPtRegsRax, 1}},
    NamedRegister{"ah", {kPtRegsRax + 1, 1}}, NamedRegister{"rbx", {kPtRegsRbx, 8}},
    NamedRegister{"ebx", {kPtRegsRbx, 4}},    NamedRegister{"bx", {kPtRegsRbx, 2}},
    NamedRegister{"bl", {kPtRegsRbx, 1}},     NamedRegister{"bh", {kPtRegsRbx + 1, 1}},
    NamedRegister{"rcx", {kPtRegsRcx, 8}},    NamedRegister{"ecx", {kPtRegsRcx, 4}},
    NamedRegister{"cx", {kPtRegsRcx, 2}},     NamedRegister{"cl", {kPtRegsRcx, 1}},
    NamedRegister{"ch", {kPtRegsRcx + 1, 1}}, NamedRegister{"rdx", {kPtRegsRdx, 8}},
    NamedRegister{"edx", {kPtRegsRdx, 4}},    NamedRegister{"dx", {kPtRegsRdx, 2}},
    NamedRegister{"dl", {kPtRegsRdx, 1}},     NamedRegister{"dh", {kPtRegsRdx + 1, 1}},
    NamedRegister{"rsi", {kPtRegsRsi, 8}},    NamedRegister{"esi", {kPtRegsRsi, 4}},
    NamedRegister{"si", {kPtRegsRsi, 2}},     NamedRegister{"sil", {kPtRegsRsi, 1}},
    NamedRegister{"rdi", {kPtRegsRdi, 8}},    NamedRegister{"edi", {kPtRegsRdi, 4}},
    NamedRegister{"di", {kPtRegsRdi, 2}},     NamedRegister{"dil", {kPtRegsRdi, 1}},
    NamedRegister{"rbp", {kPtRegsRbp, 8}},    NamedRegister{"ebp", {kPtRegsRbp, 4}},
    NamedRegister{"bp", {kPtRegsRbp, 2}},     NamedRegister{"bpl", {kPtRegsRbp, 1}},
    NamedRegister{"rsp", {kPtRegsRsp, 8}},    NamedRegister{"esp", {kPtRegsRsp, 4}},
    NamedRegister{"sp", {kPtRegsRsp, 2}},     NamedRegister{"spl", {kPtRegsRsp, 1}},
    NamedRegister{"rip", {kPtRegsRip, 8}},    NamedRegister{"eip", {kPtRegsRip, 4}},
};

// %r8 .. %r15, in that order.
constexpr std::array<int16_t, 8> kNumberedRegisters = {
    kPtRegsR8, kPtRegsR9, kPtRegsR10, kPtRegsR11, kPtRegsR12, kPtRegsR13, kPtRegsR14, kPtRegsR15};

// A register by its name without the "%": "r9", "r9d" (32 bits), "r9w"
// (16), "r9b" or AMD's "r9l" (8).
std::optional<Register> findRegister(std::string_view name) {
  for (const NamedRegister& r : kLegacyRegisters) {
    if (r.name == name) return r.reg;
  }
  if (name.size() < 2 || name[0] != 'r') return std::nullopt;
  size_t digits = 1;
  int number = 0;
  while (digits < name.size() && digits < 3 && name[digits] >= '0' && name[digits] <= '9') {
    number = number * 10 + (name[digits] - '0');
    digits++;
  }
  if (digits == 1 || number < 8 || number > 15 || (name[1] == '0')) return std::nullopt;
  const std::string_view suffix = name.substr(digits);
  uint8_t width = 0;
  if (suffix.empty())
    width = 8;
  else if (suffix == "d")
    width = 4;
  else if (suffix == "w")
    width = 2;
  else if (suffix == "b" || suffix == "l")
    width = 1;
  else
    return std::nullopt;
  return Register{kNumberedRegisters[number - 8], width};
}

// Registers the spec may name that a uprobe's pt_regs does not hold.
bool outsidePtRegs(std::string_view name) {
  for (std::string_view prefix : {"xmm", "ymm", "zmm", "st", "mm", "k"}) {
    if (name.starts_with(prefix)) return true;
  }
  return name == "cs" || name == "ds" || name == "es" || name == "fs" || name == "gs" ||
         name == "ss";
}

Result<Register> parseRegister(std::string_view text) {
  if (!text.starts_with('%'))
    return makeError("expected a register, found '" + std::string(text) + "'");
  const std::string_view name = text.substr(1);
  if (auto reg = findRegister(name)) return *reg;
  if (outsidePtRegs(name)) {
    return makeError("register %" + std::string(name) + " is not saved in a uprobe's pt_regs");
  }
  return makeError("unknown register %" + std::string(name));
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isSymbolStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '.';
}
bool isSymbolChar(char c) { return isSymbolStart(c) || isDigit(c) || c == '$'; }

// An unsigned number as the assembler reads one: 0x hexadecimal, 0b
// binary, a leading 0 octal, else decimal; at most 64 bits.
Result<uint64_t> parseNumber(std::string_view text) {
  unsigned base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    base = 2;
    text.remove_prefix(2);
  } else if (text.size() > 1 && text[0] == '0') {
    base = 8;
    text.remove_prefix(1);
  }
  uint64_t value = 0;
  for (char c : text) {
    unsigned digit = 0;
    if (isDigit(c))
      digit = c - '0';
    else if (c >= 'a' && c <= 'f')
      digit = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F')
      digit = c - 'A' + 10;
    else
      return makeError("bad number '" + std::string(text) + "'");
    if (digit >= base) return makeError("bad number '" + std::string(text) + "'");
    const uint64_t next = value * base + digit;
    if ((next - digit) / base != value) return makeError("number too large");
    value = next;
  }
  return value;
}

// A displacement or immediate: numbers added and subtracted, and at most
// one symbol, added ("foo+8", "12+arr@GOTOFF", "-16"). The value is the
// numbers' sum plus the symbol's value (as an object address), or for
// "sym@GOTOFF" (i386 PIC) plus its distance from the GOT.
struct Expression {
  uint64_t value = 0;          // two's complement: "-1" is all ones
  bool objectAddress = false;  // a plain symbol was added
};

Result<Expression> parseExpression(std::string_view text, const UsdtSymbolLookup& lookup) {
  if (text.empty()) return makeError("missing value");
  Expression e;
  bool haveSymbol = false;
  size_t i = 0;
  bool first = true;
  while (i < text.size()) {
    bool negative = false;
    if (text[i] == '+' || text[i] == '-') {
      negative = text[i] == '-';
      i++;
    } else if (!first) {
      return makeError("cannot read '" + std::string(text.substr(i)) + "' in '" +
                       std::string(text) + "'");
    }
    first = false;
    if (i < text.size() && isDigit(text[i])) {
      size_t end = i;
      while (end < text.size() && (isDigit(text[end]) || isSymbolStart(text[end]))) end++;
      auto n = parseNumber(text.substr(i, end - i));
      if (!n) return n.error();
      e.value += negative ? -*n : *n;
      i = end;
    } else if (i < text.size() && isSymbolStart(text[i])) {
      size_t end = i;
      while (end < text.size() && isSymbolChar(text[end])) end++;
      const std::string_view symbol = text.substr(i, end - i);
      std::string_view relocation;
      if (end < text.size() && text[end] == '@') {
        size_t r = end + 1;
        while (r < text.size() && isSymbolChar(text[r])) r++;
        relocation = text.substr(end + 1, r - end - 1);
        end = r;
      }
      if (negative || haveSymbol) {
        return makeError("cannot subtract or add symbols in '" + std::string(text) + "'");
      }
      if (!relocation.empty() && relocation != "GOTOFF") {
        return makeError("'" + std::string(symbol) + "@" + std::string(relocation) +
                         "' is not supported (only @GOTOFF)");
      }
      if (!lookup) return makeError("no symbol table to find '" + std::string(symbol) + "' in");
      auto address = lookup(symbol);
      if (!address) return address.error();
      if (relocation.empty()) {
        e.value += *address;
        e.objectAddress = true;
      } else {
        auto got = lookup("_GLOBAL_OFFSET_TABLE_");
        if (!got) return got.error();
        e.value += *address - *got;
      }
      haveSymbol = true;
      i = end;
    } else {
      return makeError("cannot read '" + std::string(text.substr(i)) + "' in '" +
                       std::string(text) + "'");
    }
  }
  return e;
}

// `value` as `size` bytes hold it, extended to 64 bits by `isSigned`: gcc
// writes (unsigned char)200 as "1@$-56".
int64_t fitToSize(int64_t value, uint8_t size, bool isSigned) {
  if (size >= 8) return value;
  const unsigned bits = size * 8u;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t v = static_cast<uint64_t>(value) & mask;
  if (isSigned && (v >> (bits - 1)) != 0) v |= ~mask;
  return static_cast<int64_t>(v);
}

// "[-]SIZE[f]" before the "@".
struct SizePrefix {
  uint8_t size = 8;
  bool isSigned = false;
  bool isFloat = false;
};

std::optional<SizePrefix> parseSizePrefix(std::string_view text) {
  SizePrefix p;
  if (text.starts_with('-')) {
    p.isSigned = true;
    text.remove_prefix(1);
  }
  if (text.ends_with('f')) {
    p.isFloat = true;
    text.remove_suffix(1);
  }
  if (text.empty() || text.size() > 2) return std::nullopt;
  int size = 0;
  for (char c : text) {
    if (!isDigit(c)) return std::nullopt;
    size = size * 10 + (c - '0');
  }
  p.size = static_cast<uint8_t>(size);
  return p;
}

// "disp(base,index,scale)", any part but the parentheses' comma structure
// optional; or "disp" alone, an absolute address.
Result<void> parseMemory(std::string_view operand, const UsdtSymbolLookup& lookup,
                         UsdtArgument& arg) {
  arg.kind = UsdtArgument::Kind::Memory;
  const size_t open = operand.find('(');
  const std::string_view disp = operand.substr(0, open);
  std::string_view base, index, scale;
  if (open != std::string_view::npos) {
    if (!operand.ends_with(')')) return makeError("expected ')' at the end");
    std::string_view inside = operand.substr(open + 1, operand.size() - open - 2);
    const size_t comma1 = inside.find(',');
    base = inside.substr(0, comma1);
    if (comma1 != std::string_view::npos) {
      inside.remove_prefix(comma1 + 1);
      const size_t comma2 = inside.find(',');
      index = inside.substr(0, comma2);
      if (comma2 != std::string_view::npos) scale = inside.substr(comma2 + 1);
      if (index.empty()) return makeError("missing index register");
    }
    if (base.empty() && index.empty()) return makeError("no register in the parentheses");
  } else if (disp.empty()) {
    return makeError("missing operand");
  }
  bool ripBase = false;
  if (!base.empty()) {
    auto reg = parseRegister(base);
    if (!reg) return reg.error();
    if (reg->width < 4) return makeError("%" + std::string(base.substr(1)) + " cannot be a base");
    ripBase = reg->offset == kPtRegsRip;
    if (ripBase && !index.empty()) return makeError("%rip-relative operands have no index");
    arg.regOffset = reg->offset;
  }
  if (!index.empty()) {
    auto reg = parseRegister(index);
    if (!reg) return reg.error();
    if (reg->width < 4 || reg->offset == kPtRegsRip || reg->offset == kPtRegsRsp) {
      return makeError(std::string(index) + " cannot be an index");
    }
    arg.indexOffset = reg->offset;
    if (!scale.empty()) {
      if (scale != "1" && scale != "2" && scale != "4" && scale != "8") {
        return makeError("scale " + std::string(scale) + " is not 1, 2, 4 or 8");
      }
      arg.scale = static_cast<uint8_t>(scale[0] - '0');
    }
  }
  if (!disp.empty()) {
    auto e = parseExpression(disp, lookup);
    if (!e) return e.error();
    arg.displacement = static_cast<int64_t>(e->value);
    arg.objectAddress = e->objectAddress;
  }
  if (ripBase) {
    if (arg.objectAddress) {
      arg.regOffset = -1;  // "foo(%rip)" is foo's address itself
    } else {
      arg.ripRelative = true;
    }
  }
  return {};
}

}  // namespace

Result<UsdtArgument> parseUsdtArgument(std::string_view spec, const UsdtSymbolLookup& lookup) {
  UsdtArgument arg;
  arg.text = std::string(spec);
  auto fail = [&](const Error& e) { return makeError("'" + arg.text + "': " + e.message); };
  std::string_view operand = spec;
  bool sized = false;
  if (const size_t at = spec.find('@'); at != std::string_view::npos) {
    // "counter@GOTOFF(%eax)" without a size has an "@" too: only a size
    // before it makes it the size's.
    if (auto prefix = parseSizePrefix(spec.substr(0, at))) {
      if (prefix->size != 1 && prefix->size != 2 && prefix->size != 4 && prefix->size != 8) {
        return fail(makeError("size " + std::to_string(prefix->size) + " is not 1, 2, 4 or 8"));
      }
      if (prefix->isFloat && prefix->size != 4 && prefix->size != 8) {
        return fail(
            makeError("a floating-point value of " + std::to_string(prefix->size) + " bytes"));
      }
      arg.size = prefix->size;
      arg.isSigned = prefix->isSigned;
      arg.isFloat = prefix->isFloat;
      operand = spec.substr(at + 1);
      sized = true;
    }
  }
  if (operand.empty()) return fail(makeError("missing operand"));
  if (operand.find(':') != std::string_view::npos) {
    return fail(makeError("segment-relative operands (thread-local storage) are not supported"));
  }
  if (operand[0] == '%') {
    auto reg = parseRegister(operand);
    if (!reg) return fail(reg.error());
    if (reg->offset == kPtRegsRip) return fail(makeError("the instruction pointer as a value"));
    arg.kind = UsdtArgument::Kind::Register;
    arg.regOffset = reg->offset;
    if (!sized) arg.size = reg->width;
    return arg;
  }
  if (operand[0] == '$') {
    auto e = parseExpression(operand.substr(1), lookup);
    if (!e) return fail(e.error());
    arg.kind = UsdtArgument::Kind::Constant;
    arg.constant = static_cast<int64_t>(e->value);
    arg.objectAddress = e->objectAddress;
    if (!arg.objectAddress) arg.constant = fitToSize(arg.constant, arg.size, arg.isSigned);
    return arg;
  }
  if (auto memory = parseMemory(operand, lookup, arg); !memory) return fail(memory.error());
  return arg;
}

UsdtArgumentList parseUsdtArguments(std::string_view specs, const UsdtSymbolLookup& lookup) {
  UsdtArgumentList list;
  size_t i = 0;
  while (i < specs.size()) {
    if (specs[i] == ' ' || specs[i] == '\t') {
      i++;
      continue;
    }
    size_t end = i;
    while (end < specs.size() && specs[end] != ' ' && specs[end] != '\t') end++;
    auto arg = parseUsdtArgument(specs.substr(i, end - i), lookup);
    if (!arg) {
      list.error = "argument " + std::to_string(list.args.size()) + " " + arg.error().message;
      break;
    }
    list.args.push_back(std::move(*arg));
    i = end;
  }
  return list;
}

}  // namespace dtrace::sym
