#include "sym/elf_symbols_by_name.h"

#include <gelf.h>

namespace dtrace::sym {

namespace {

// The symbol table section of `type` (SHT_SYMTAB, SHT_DYNSYM), if any.
Elf_Scn* findTable(Elf* elf, uint32_t type) {
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (gelf_getshdr(scn, &shdr) && shdr.sh_type == type) return scn;
  }
  return nullptr;
}

}  // namespace

ElfSymbolsByName::ElfSymbolsByName(Elf* elf) {
  Elf_Scn* table = findTable(elf, SHT_SYMTAB);
  if (!table) table = findTable(elf, SHT_DYNSYM);
  GElf_Shdr shdr;
  if (!table || !gelf_getshdr(table, &shdr) || shdr.sh_entsize == 0) return;
  Elf_Data* data = elf_getdata(table, nullptr);
  if (!data) return;
  const size_t count = shdr.sh_size / shdr.sh_entsize;
  uint32_t file = 0;
  for (size_t i = 1; i < count; i++) {
    GElf_Sym sym;
    if (!gelf_getsym(data, static_cast<int>(i), &sym)) break;
    const int type = GELF_ST_TYPE(sym.st_info);
    // A linker writes each input file's locals after an STT_FILE symbol
    // naming it; the globals come after all of them.
    if (type == STT_FILE) {
      file++;
      continue;
    }
    // Thread-local symbols are offsets in a TLS block, not addresses.
    if (sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_COMMON || type == STT_SECTION ||
        type == STT_TLS) {
      continue;
    }
    const char* name = elf_strptr(elf, shdr.sh_link, sym.st_name);
    if (!name || !*name) continue;
    const bool local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
    Symbol s{sym.st_value, sym.st_size, local ? file : 0, type == STT_FUNC};
    if (local && s.isFunction && s.size != 0) localFunctions_.push_back(s);
    byName_.emplace(name, s);
  }
}

uint32_t ElfSymbolsByName::fileOfFunctionAt(uint64_t address) const {
  for (const Symbol& f : localFunctions_) {
    if (address >= f.value && address - f.value < f.size) return f.file;
  }
  return 0;
}

Result<uint64_t> ElfSymbolsByName::find(std::string_view name, uint64_t near) const {
  const auto [begin, end] = byName_.equal_range(std::string(name));
  if (begin == end) {
    return makeError("no symbol '" + std::string(name) + "' in the object's symbol table");
  }
  bool allSame = true;
  for (auto it = begin; it != end; ++it)
    allSame = allSame && it->second.value == begin->second.value;
  if (allSame) return begin->second.value;
  // Ambiguous: a static of the probe's own source file first (C's scope),
  // then the single global.
  if (const uint32_t file = fileOfFunctionAt(near)) {
    for (auto it = begin; it != end; ++it) {
      if (it->second.file == file) return it->second.value;
    }
  }
  const Symbol* global = nullptr;
  int globals = 0;
  for (auto it = begin; it != end; ++it) {
    if (it->second.file == 0) {
      global = &it->second;
      globals++;
    }
  }
  if (globals == 1) return global->value;
  return makeError("several symbols are named '" + std::string(name) +
                   "'; cannot tell which the probe means");
}

}  // namespace dtrace::sym
