#include "bpf/disasm.h"

#include <bpf/bpf.h>

#include <cstdarg>
#include <cstdio>

#include "bpf/btf_name_index.h"
#include "bpf/helpers.h"

// Sign-extending loads (cpu v4) are newer than the installed UAPI headers.
#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80
#endif

namespace dtrace::bpf {
namespace {

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

std::string format(const char* fmt, ...) {
  char buf[256];
  va_list args;
  va_start(args, fmt);
  vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  return buf;
}

const char* aluOperator(uint8_t code) {
  switch (BPF_OP(code)) {
    case BPF_ADD:
      return "+=";
    case BPF_SUB:
      return "-=";
    case BPF_MUL:
      return "*=";
    case BPF_DIV:
      return "/=";
    case BPF_OR:
      return "|=";
    case BPF_AND:
      return "&=";
    case BPF_LSH:
      return "<<=";
    case BPF_RSH:
      return ">>=";
    case BPF_NEG:
      return "neg";
    case BPF_MOD:
      return "%=";
    case BPF_XOR:
      return "^=";
    case BPF_MOV:
      return "=";
    case BPF_ARSH:
      return "s>>=";
    default:
      return "endian";
  }
}

// Signed division and modulo (cpu v4) reuse DIV/MOD with off == 1.
const char* signedAluOperator(uint8_t code) { return BPF_OP(code) == BPF_DIV ? "s/=" : "s%="; }

const char* jumpOperator(uint8_t code) {
  switch (BPF_OP(code)) {
    case BPF_JA:
      return "jmp";
    case BPF_JEQ:
      return "==";
    case BPF_JGT:
      return ">";
    case BPF_JLT:
      return "<";
    case BPF_JGE:
      return ">=";
    case BPF_JLE:
      return "<=";
    case BPF_JSET:
      return "&";
    case BPF_JNE:
      return "!=";
    case BPF_JSGT:
      return "s>";
    case BPF_JSLT:
      return "s<";
    case BPF_JSGE:
      return "s>=";
    case BPF_JSLE:
      return "s<=";
    case BPF_CALL:
      return "call";
    default:
      return "exit";
  }
}

const char* sizeName(uint8_t code) {
  switch (BPF_SIZE(code)) {
    case BPF_B:
      return "u8";
    case BPF_H:
      return "u16";
    case BPF_W:
      return "u32";
    default:
      return "u64";
  }
}

const char* atomicName(int32_t op) {
  switch (op & ~BPF_FETCH) {
    case BPF_ADD:
      return "add";
    case BPF_AND:
      return "and";
    case BPF_OR:
      return "or";
    default:
      return "xor";
  }
}

std::string defaultMapName(int fd) {
  bpf_map_info info{};
  uint32_t len = sizeof info;
  if (fd >= 0 && bpf_obj_get_info_by_fd(fd, &info, &len) == 0 && info.id != 0) {
    return format("map[id:%u]", info.id);
  }
  return format("map[fd:%d]", fd);
}

std::string aluText(const Insn& in) {
  const uint8_t cls = BPF_CLASS(in.code);
  const char r = cls == BPF_ALU ? 'w' : 'r';
  const uint8_t op = BPF_OP(in.code);
  if (op == BPF_END) {
    if (cls == BPF_ALU64) {
      return format("(%02x) r%d = bswap%d r%d", in.code, in.dst_reg, in.imm, in.dst_reg);
    }
    return format("(%02x) r%d = %s%d r%d", in.code, in.dst_reg,
                  BPF_SRC(in.code) == BPF_TO_BE ? "be" : "le", in.imm, in.dst_reg);
  }
  if (op == BPF_NEG) {
    return format("(%02x) %c%d = -%c%d", in.code, r, in.dst_reg, r, in.dst_reg);
  }
  const bool isSigned = (op == BPF_DIV || op == BPF_MOD) && in.off == 1;
  const char* text = isSigned ? signedAluOperator(in.code) : aluOperator(in.code);
  if (BPF_SRC(in.code) == BPF_X) {
    const char* cast = "";
    if (op == BPF_MOV && in.off != 0) {
      cast = in.off == 8 ? "(s8)" : in.off == 16 ? "(s16)" : "(s32)";
    }
    return format("(%02x) %c%d %s %s%c%d", in.code, r, in.dst_reg, text, cast, r, in.src_reg);
  }
  return format("(%02x) %c%d %s %d", in.code, r, in.dst_reg, text, in.imm);
}

std::string storeText(const Insn& in) {
  const char* size = sizeName(in.code);
  if (BPF_MODE(in.code) == BPF_MEM) {
    return format("(%02x) *(%s *)(r%d %+d) = r%d", in.code, size, in.dst_reg, in.off, in.src_reg);
  }
  if (BPF_MODE(in.code) != BPF_ATOMIC) return format("BUG_%02x", in.code);
  const char* bits = BPF_SIZE(in.code) == BPF_DW ? "64" : "";
  const int32_t op = in.imm;
  if (op == BPF_ADD || op == BPF_AND || op == BPF_OR || op == BPF_XOR) {
    return format("(%02x) lock *(%s *)(r%d %+d) %s r%d", in.code, size, in.dst_reg, in.off,
                  aluOperator(static_cast<uint8_t>(op)), in.src_reg);
  }
  if (op == (BPF_ADD | BPF_FETCH) || op == (BPF_AND | BPF_FETCH) || op == (BPF_OR | BPF_FETCH) ||
      op == (BPF_XOR | BPF_FETCH)) {
    return format("(%02x) r%d = atomic%s_fetch_%s((%s *)(r%d %+d), r%d)", in.code, in.src_reg, bits,
                  atomicName(op), size, in.dst_reg, in.off, in.src_reg);
  }
  if (op == BPF_CMPXCHG) {
    return format("(%02x) r0 = atomic%s_cmpxchg((%s *)(r%d %+d), r0, r%d)", in.code, bits, size,
                  in.dst_reg, in.off, in.src_reg);
  }
  if (op == BPF_XCHG) {
    return format("(%02x) r%d = atomic%s_xchg((%s *)(r%d %+d), r%d)", in.code, in.src_reg, bits,
                  size, in.dst_reg, in.off, in.src_reg);
  }
  return format("BUG_%02x", in.code);
}

std::string loadImmText(const Insn& in, const Insn* next, const DisasmOptions& options) {
  if (BPF_MODE(in.code) != BPF_IMM || BPF_SIZE(in.code) != BPF_DW || next == nullptr) {
    return format("BUG_ld_%02x", in.code);
  }
  std::string value;
  if (in.src_reg == BPF_PSEUDO_MAP_FD || in.src_reg == BPF_PSEUDO_MAP_VALUE) {
    value = options.mapName ? options.mapName(in.imm) : defaultMapName(in.imm);
    if (in.src_reg == BPF_PSEUDO_MAP_VALUE) {
      value += format("[0]+%u", static_cast<uint32_t>(next->imm));
    }
  } else if (in.src_reg == BPF_PSEUDO_FUNC) {
    value = format("subprog[%+d]", in.imm);
  } else {
    const uint64_t imm = (static_cast<uint64_t>(static_cast<uint32_t>(next->imm)) << 32) |
                         static_cast<uint32_t>(in.imm);
    value = format("0x%llx", static_cast<unsigned long long>(imm));
  }
  return format("(%02x) r%d = ", in.code, in.dst_reg) + value;
}

// A kfunc's name from the kernel's BTF, read once (and only by listings
// that call one); "kernel-function" where BTF cannot tell.
std::string kernelFunctionName(int32_t btfId) {
  static const std::optional<BtfNameIndex> btf = []() -> std::optional<BtfNameIndex> {
    auto index = BtfNameIndex::openVmlinux();
    if (!index) return std::nullopt;
    return std::move(*index);
  }();
  const std::string_view name = btf ? btf->nameOf(static_cast<uint32_t>(btfId)) : "";
  return name.empty() ? "kernel-function" : std::string(name);
}

std::string jumpText(const Insn& in) {
  const uint8_t cls = BPF_CLASS(in.code);
  const uint8_t op = BPF_OP(in.code);
  if (op == BPF_CALL) {
    if (in.src_reg == BPF_PSEUDO_CALL) return format("(%02x) call pc%+d", in.code, in.imm);
    if (in.src_reg == BPF_PSEUDO_KFUNC_CALL) {
      const std::string name = kernelFunctionName(in.imm);
      return format("(%02x) call %s#%d", in.code, name.c_str(), in.imm);
    }
    const std::string_view name = helperName(in.imm);
    const std::string full = name.empty() ? "unknown" : "bpf_" + std::string(name);
    return format("(%02x) call %s#%d", in.code, full.c_str(), in.imm);
  }
  if (op == BPF_JA) {
    if (cls == BPF_JMP32) return format("(%02x) gotol pc%+d", in.code, in.imm);
    return format("(%02x) goto pc%+d", in.code, in.off);
  }
  if (op == BPF_EXIT) return format("(%02x) exit", in.code);
  const char r = cls == BPF_JMP32 ? 'w' : 'r';
  if (BPF_SRC(in.code) == BPF_X) {
    return format("(%02x) if %c%d %s %c%d goto pc%+d", in.code, r, in.dst_reg,
                  jumpOperator(in.code), r, in.src_reg, in.off);
  }
  return format("(%02x) if %c%d %s 0x%x goto pc%+d", in.code, r, in.dst_reg, jumpOperator(in.code),
                static_cast<uint32_t>(in.imm), in.off);
}

}  // namespace

std::string disassembleOne(const Insn& insn, const Insn* next, const DisasmOptions& options) {
  switch (BPF_CLASS(insn.code)) {
    case BPF_ALU:
    case BPF_ALU64:
      return aluText(insn);
    case BPF_STX:
      return storeText(insn);
    case BPF_ST:
      if (BPF_MODE(insn.code) == BPF_MEM) {
        return format("(%02x) *(%s *)(r%d %+d) = %d", insn.code, sizeName(insn.code), insn.dst_reg,
                      insn.off, insn.imm);
      }
      return format("BUG_st_%02x", insn.code);
    case BPF_LDX:
      if (BPF_MODE(insn.code) == BPF_MEM) {
        return format("(%02x) r%d = *(%s *)(r%d %+d)", insn.code, insn.dst_reg, sizeName(insn.code),
                      insn.src_reg, insn.off);
      }
      if (BPF_MODE(insn.code) == BPF_MEMSX) {
        const char* size = BPF_SIZE(insn.code) == BPF_B   ? "s8"
                           : BPF_SIZE(insn.code) == BPF_H ? "s16"
                                                          : "s32";
        return format("(%02x) r%d = *(%s *)(r%d %+d)", insn.code, insn.dst_reg, size, insn.src_reg,
                      insn.off);
      }
      return format("BUG_ldx_%02x", insn.code);
    case BPF_LD:
      return loadImmText(insn, next, options);
    default:
      return jumpText(insn);
  }
}

std::string disassemble(std::span<const Insn> insns, const DisasmOptions& options) {
  std::string out;
  for (size_t i = 0; i < insns.size(); ++i) {
    const Insn& insn = insns[i];
    const bool wide = insn.code == (BPF_LD | BPF_IMM | BPF_DW);
    const Insn* next = wide && i + 1 < insns.size() ? &insns[i + 1] : nullptr;
    if (options.showIndex) out += format("%4zu: ", i);
    out += disassembleOne(insn, next, options);
    out += '\n';
    if (next != nullptr) ++i;
  }
  return out;
}

}  // namespace dtrace::bpf
