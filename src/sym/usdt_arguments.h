// The arguments of a USDT probe, as systemtap's <sys/sdt.h> describes them
// in a probe's note: one spec per argument, separated by spaces, each
// "[-]SIZE[f]@OPERAND" with OPERAND in AT&T assembler syntax as the
// compiler chose it ("-4@%edi", "8@-16(%rbp)", "-4@$5", "8@foo+8(%rip)").
// A "-" marks a signed value, an "f" a floating-point one; notes written
// before sizes existed have the operand alone ("%rdi": all 8 bytes).
//
// Registers are named by where a uprobe's program finds them: the byte
// offset in x86-64's `struct pt_regs` (the user layout of asm/ptrace.h).
// i386 names map to the same slots, which is where a 64-bit kernel keeps a
// 32-bit process's registers.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace dtrace::sym {

// Offsets in x86-64's struct pt_regs.
inline constexpr int16_t kPtRegsR15 = 0;
inline constexpr int16_t kPtRegsR14 = 8;
inline constexpr int16_t kPtRegsR13 = 16;
inline constexpr int16_t kPtRegsR12 = 24;
inline constexpr int16_t kPtRegsRbp = 32;
inline constexpr int16_t kPtRegsRbx = 40;
inline constexpr int16_t kPtRegsR11 = 48;
inline constexpr int16_t kPtRegsR10 = 56;
inline constexpr int16_t kPtRegsR9 = 64;
inline constexpr int16_t kPtRegsR8 = 72;
inline constexpr int16_t kPtRegsRax = 80;
inline constexpr int16_t kPtRegsRcx = 88;
inline constexpr int16_t kPtRegsRdx = 96;
inline constexpr int16_t kPtRegsRsi = 104;
inline constexpr int16_t kPtRegsRdi = 112;
inline constexpr int16_t kPtRegsRip = 128;
inline constexpr int16_t kPtRegsRsp = 152;

// The value of one argument at the probe:
//   Constant: `constant` (plus the load bias when objectAddress);
//   Register: the low `size` bytes of the pt_regs slot at regOffset;
//   Memory:   `size` bytes at  [reg(regOffset)] + [reg(indexOffset) * scale]
//             + displacement (+ the load bias when objectAddress),
//             a missing register (-1) counting 0.
// Values read narrower than 8 bytes extend by isSigned.
struct UsdtArgument {
  enum class Kind { Constant, Register, Memory };
  Kind kind = Kind::Constant;
  uint8_t size = 8;       // bytes: 1, 2, 4 or 8
  bool isSigned = false;  // "-" before the size
  bool isFloat = false;   // "f" after the size: a float (4) or double (8)
  // Constant: "$N" as a value of `size` bytes, extended by isSigned (gcc
  // writes (unsigned char)200 as "1@$-56": 200 here).
  int64_t constant = 0;
  // Register: the pt_regs offset of the bytes to read (the register's, +1
  // for %ah %bh %ch %dh); Memory: the base register, -1 if none.
  int16_t regOffset = -1;
  int16_t indexOffset = -1;  // Memory: the index register, -1 if none
  uint8_t scale = 1;         // Memory: the index's factor
  int64_t displacement = 0;  // Memory
  // Memory: the base is %rip written with a plain number ("12(%rip)"):
  // regOffset is kPtRegsRip, whose value in a uprobe is the probe's
  // address. A symbol before (%rip) ("foo+8(%rip)") names an address, not
  // an offset from the probe: it is resolved instead, with no base
  // register, ripRelative false and objectAddress true.
  bool ripRelative = false;
  // Constant or displacement is a link-time virtual address of the object
  // (it came from a symbol: "$foo", "foo(%rip)", "foo(,%rax,8)"); add the
  // load bias of the object's mapping (0 for a non-PIE executable) at run
  // time.
  bool objectAddress = false;
  std::string text;  // the spec as written, for messages
};

// The value of a symbol named in a spec (a link-time virtual address of
// the object), or why there is none. "_GLOBAL_OFFSET_TABLE_" is asked for
// to resolve i386's "sym@GOTOFF".
using UsdtSymbolLookup = std::function<Result<uint64_t>(std::string_view name)>;

// One spec ("-4@%edi"). Symbols are resolved through `lookup`; without
// one, a spec naming a symbol is an error.
Result<UsdtArgument> parseUsdtArgument(std::string_view spec, const UsdtSymbolLookup& lookup = {});

// A note's argument string, parsed spec by spec.
struct UsdtArgumentList {
  // The arguments in order; on an error, those before the spec that failed
  // (their positions are right).
  std::vector<UsdtArgument> args;
  std::string error;  // non-empty: the first spec not understood, and why
};
UsdtArgumentList parseUsdtArguments(std::string_view specs, const UsdtSymbolLookup& lookup = {});

}  // namespace dtrace::sym
