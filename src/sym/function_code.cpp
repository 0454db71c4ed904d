#include "sym/function_code.h"

#include <capstone/capstone.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <iterator>
#include <memory>

#include "util/fd.h"

namespace dtrace::sym {

namespace {

// Capstone is loaded when a function is first decoded, not linked: its
// tables cost every dtrace run 3 MiB of start-up relocations otherwise,
// and only the pid provider decodes.
struct Capstone {
  decltype(&cs_open) open = nullptr;
  decltype(&cs_option) option = nullptr;
  decltype(&cs_close) close = nullptr;
  decltype(&cs_malloc) malloc = nullptr;
  decltype(&cs_free) free = nullptr;
  decltype(&cs_disasm_iter) disasmIter = nullptr;

  static const Capstone& get() {
    static const Capstone library = load();
    return library;
  }
  bool loaded() const { return disasmIter != nullptr; }

 private:
  static Capstone load() {
    Capstone c;
    void* lib = nullptr;
    for (const char* name : {"libcapstone.so." CAPSTONE_SONAME_VERSION, "libcapstone.so"}) {
      if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
    }
    if (!lib) return c;
    c.open = reinterpret_cast<decltype(&cs_open)>(dlsym(lib, "cs_open"));
    c.option = reinterpret_cast<decltype(&cs_option)>(dlsym(lib, "cs_option"));
    c.close = reinterpret_cast<decltype(&cs_close)>(dlsym(lib, "cs_close"));
    c.malloc = reinterpret_cast<decltype(&cs_malloc)>(dlsym(lib, "cs_malloc"));
    c.free = reinterpret_cast<decltype(&cs_free)>(dlsym(lib, "cs_free"));
    c.disasmIter = reinterpret_cast<decltype(&cs_disasm_iter)>(dlsym(lib, "cs_disasm_iter"));
    if (!c.open || !c.option || !c.close || !c.malloc || !c.free) c.disasmIter = nullptr;
    return c;
  }
};

struct CapstoneHandle {
  const Capstone& library = Capstone::get();
  csh handle = 0;
  bool open = false;
  CapstoneHandle() {
    open = library.loaded() && library.open(CS_ARCH_X86, CS_MODE_64, &handle) == CS_ERR_OK;
    if (open) library.option(handle, CS_OPT_DETAIL, CS_OPT_ON);
  }
  ~CapstoneHandle() {
    if (open) library.close(&handle);
  }
};

// A jump whose immediate target lies outside [start, end): a tail call.
bool leavesFunction(const cs_insn& insn, uint64_t start, uint64_t end) {
  if (insn.id != X86_INS_JMP || insn.detail == nullptr) return false;
  const cs_x86& x86 = insn.detail->x86;
  if (x86.op_count != 1 || x86.operands[0].type != X86_OP_IMM) return false;
  const uint64_t target = static_cast<uint64_t>(x86.operands[0].imm);
  return target < start || target >= end;
}

}  // namespace

bool uprobeCanTrap(const uint8_t* code, size_t size) {
  size_t i = 0;
  for (; i < size; i++) {
    const uint8_t b = code[i];
    if (b == 0xf0) return false;  // LOCK
    const bool legacyPrefix = b == 0x66 || b == 0x67 || b == 0xf2 || b == 0xf3 || b == 0x2e ||
                              b == 0x3e || b == 0x26 || b == 0x36 || b == 0x64 || b == 0x65;
    const bool rex = b >= 0x40 && b <= 0x4f;
    if (!legacyPrefix && !rex) break;
  }
  if (i == size) return false;
  // One-byte opcodes the kernel's table refuses: invalid in 64-bit mode,
  // port I/O, software interrupts, hlt, cli/sti, and the VEX/EVEX escapes.
  static constexpr uint8_t kRefused[] = {
      0x06, 0x07, 0x0e, 0x16, 0x17, 0x1e, 0x1f, 0x27, 0x2f, 0x37, 0x3f, 0x60, 0x61, 0x62,
      0x6c, 0x6d, 0x6e, 0x6f, 0x82, 0x9a, 0xc4, 0xc5, 0xcc, 0xcd, 0xce, 0xd4, 0xd5, 0xd6,
      0xe4, 0xe5, 0xe6, 0xe7, 0xea, 0xec, 0xed, 0xee, 0xef, 0xf1, 0xf4, 0xfa, 0xfb};
  return std::find(std::begin(kRefused), std::end(kRefused), code[i]) == std::end(kRefused);
}

bool uprobeCanTrapAt(const std::string& path, uint64_t fileOffset) {
  const Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return false;
  uint8_t code[16];
  const ssize_t got = pread(fd.get(), code, sizeof code, static_cast<off_t>(fileOffset));
  return got > 0 && uprobeCanTrap(code, static_cast<size_t>(got));
}

FunctionCode decodeFunctionBytes(const uint8_t* code, size_t size, uint64_t address) {
  FunctionCode out;
  CapstoneHandle cs;
  if (!cs.open) {
    out.truncated = true;
    return out;
  }
  auto freeInsn = [&cs](cs_insn* i) { cs.library.free(i, 1); };
  std::unique_ptr<cs_insn, decltype(freeInsn)> insn(cs.library.malloc(cs.handle), freeInsn);
  const uint8_t* bytes = code;
  size_t left = size;
  uint64_t at = address;
  while (left > 0) {
    const uint64_t offset = at - address;
    if (!cs.library.disasmIter(cs.handle, &bytes, &left, &at, insn.get())) {
      out.truncated = true;
      break;
    }
    out.instructions.push_back(static_cast<uint32_t>(offset));
    out.trappable.push_back(uprobeCanTrap(code + offset, size - offset));
    if (insn->id == X86_INS_RET) out.rets.push_back(static_cast<uint32_t>(offset));
    if (insn->id == X86_INS_RET || leavesFunction(*insn, address, address + size)) {
      out.returns.push_back(static_cast<uint32_t>(offset));
    }
  }
  return out;
}

Result<FunctionCode> decodeFunction(const std::string& path, uint64_t fileOffset, uint64_t address,
                                    uint64_t size) {
  Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return makeError("cannot open " + path + ": " + std::strerror(errno));
  std::vector<uint8_t> code(size);
  const ssize_t got = pread(fd.get(), code.data(), size, static_cast<off_t>(fileOffset));
  const int err = errno;
  fd.reset();
  if (got < 0) return makeError("cannot read " + path + ": " + std::strerror(err));
  code.resize(static_cast<size_t>(got));
  return decodeFunctionBytes(code.data(), code.size(), address);
}

}  // namespace dtrace::sym
