// The data and function symbols of one ELF object by name, read with
// libelf from .symtab (or .dynsym when the object has no .symtab): the
// names compilers write into USDT argument specs ("counter(%rip)").
// Unlike ObjectFile (addresses to function names, through libdwfl and
// debug files), this answers names to addresses in the object itself.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "util/result.h"

struct Elf;  // libelf

namespace dtrace::sym {

class ElfSymbolsByName {
 public:
  explicit ElfSymbolsByName(Elf* elf);

  // The value of the defined symbol `name` (an object virtual address; in
  // a .o, an offset in its section). Several local symbols may share a
  // name (statics of different source files): the one from the source file
  // of the function containing `near` is taken, else the one global.
  Result<uint64_t> find(std::string_view name, uint64_t near) const;

 private:
  struct Symbol {
    uint64_t value = 0;
    uint64_t size = 0;
    uint32_t file = 0;  // locals: which STT_FILE symbol they follow (from 1); globals 0
    bool isFunction = false;
  };
  uint32_t fileOfFunctionAt(uint64_t address) const;

  std::unordered_multimap<std::string, Symbol> byName_;
  std::vector<Symbol> localFunctions_;
};

}  // namespace dtrace::sym
