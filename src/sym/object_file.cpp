#include "sym/object_file.h"

#include <elfutils/libdwfl.h>
#include <gelf.h>

#include <algorithm>
#include <cstring>

#include "sym/offline_dwfl.h"

namespace dtrace::sym {

namespace {

// A symbol as read, before aliases at one address are settled.
struct Candidate {
  uint64_t address;
  uint64_t size;
  uint8_t binding;
  std::string_view name;
};

size_t leadingUnderscores(std::string_view name) {
  return std::min(name.find_first_not_of('_'), name.size());
}

// Of two symbols at one address, the one a person would name the function
// by (as libproc's sym_prefer picks): a global one, then the one with fewer
// leading underscores ("malloc", not "__libc_malloc"), then a sized one,
// then the smaller, then the first in lexical order.
bool preferred(const Candidate& a, const Candidate& b) {
  if ((a.binding == STB_GLOBAL) != (b.binding == STB_GLOBAL)) return a.binding == STB_GLOBAL;
  const size_t ua = leadingUnderscores(a.name), ub = leadingUnderscores(b.name);
  if (ua != ub) return ua < ub;
  if ((a.size != 0) != (b.size != 0)) return a.size != 0;
  if (a.size != b.size) return a.size < b.size;
  return a.name < b.name;
}

}  // namespace

std::shared_ptr<const ObjectFile> ObjectFile::load(const std::string& path) {
  auto object = std::make_shared<ObjectFile>();
  OfflineDwfl dwfl = beginOfflineDwfl();
  if (!dwfl) return object;
  dwfl_report_begin(dwfl.get());
  Dwfl_Module* module = dwfl_report_offline(dwfl.get(), "", path.c_str(), -1);
  dwfl_report_end(dwfl.get(), nullptr, nullptr);
  if (!module) return object;
  GElf_Addr bias = 0;
  Elf* elf = dwfl_module_getelf(module, &bias);
  if (!elf) return object;
  GElf_Ehdr header;
  object->shared_ = gelf_getehdr(elf, &header) && header.e_type == ET_DYN;
  size_t headers = 0;
  if (elf_getphdrnum(elf, &headers) == 0) {
    for (size_t i = 0; i < headers; i++) {
      GElf_Phdr ph;
      if (gelf_getphdr(elf, static_cast<int>(i), &ph) && ph.p_type == PT_LOAD) {
        object->segments_.push_back({ph.p_offset, ph.p_vaddr, ph.p_filesz});
      }
    }
  }
  object->addSymbols(module);
  return object;
}

void ObjectFile::addSymbols(Dwfl_Module* module) {
  GElf_Addr mainBias = 0;
  dwfl_module_getelf(module, &mainBias);
  std::vector<Candidate> candidates;
  const int count = dwfl_module_getsymtab(module);
  for (int i = 1; i < count; i++) {
    GElf_Sym sym;
    GElf_Addr address = 0;
    GElf_Word section = 0;
    Elf* elf = nullptr;
    Dwarf_Addr bias = 0;
    const char* name = dwfl_module_getsym_info(module, i, &sym, &address, &section, &elf, &bias);
    const int type = GELF_ST_TYPE(sym.st_info);
    if (!name || !*name || section == SHN_UNDEF || address == 0 ||
        (type != STT_FUNC && type != STT_GNU_IFUNC)) {
      continue;
    }
    // A debug file's symbol table spells a default-versioned symbol
    // "pthread_mutex_lock@@GLIBC_2.2.5"; callers and the dynamic symbol
    // table say "pthread_mutex_lock".
    std::string_view unversioned(name);
    unversioned = unversioned.substr(0, unversioned.find("@@"));
    // The symbol's address in the main file's virtual addresses (a debug
    // file's symbols are biased like its own sections).
    candidates.push_back({address - mainBias, sym.st_size,
                          static_cast<uint8_t>(GELF_ST_BIND(sym.st_info)), unversioned});
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return a.address != b.address ? a.address < b.address : preferred(a, b);
  });
  for (const Candidate& c : candidates) {
    const bool alias = !functions_.empty() && functions_.back().address == c.address;
    (alias ? aliases_ : functions_)
        .push_back({c.address, alias ? functions_.back().size : c.size,
                    static_cast<uint32_t>(names_.size()), static_cast<uint32_t>(c.name.size())});
    names_.append(c.name);
  }
}

FunctionSymbol ObjectFile::symbol(size_t index) const {
  const Function& f = functions_[index];
  uint64_t size = f.size;
  if (size == 0 && index + 1 < functions_.size()) size = functions_[index + 1].address - f.address;
  return {std::string_view(names_).substr(f.nameOffset, f.nameLength), f.address, size};
}

std::vector<FunctionSymbol> ObjectFile::functions() const {
  std::vector<FunctionSymbol> out;
  out.reserve(functions_.size());
  for (size_t i = 0; i < functions_.size(); i++) out.push_back(symbol(i));
  return out;
}

std::optional<FunctionSymbol> ObjectFile::function(std::string_view name) const {
  auto named = [&](const Function& f) {
    return std::string_view(names_).substr(f.nameOffset, f.nameLength) == name;
  };
  for (size_t i = 0; i < functions_.size(); i++) {
    if (named(functions_[i])) return symbol(i);
  }
  for (const Function& a : aliases_) {
    if (!named(a)) continue;
    auto it = std::lower_bound(functions_.begin(), functions_.end(), a.address,
                               [](const Function& f, uint64_t at) { return f.address < at; });
    FunctionSymbol s = symbol(static_cast<size_t>(it - functions_.begin()));
    s.name = std::string_view(names_).substr(a.nameOffset, a.nameLength);
    return s;
  }
  return std::nullopt;
}

std::optional<uint64_t> ObjectFile::fileOffset(uint64_t address) const {
  for (const Segment& s : segments_) {
    if (address >= s.address && address - s.address < s.fileSize) {
      return address - s.address + s.offset;
    }
  }
  return std::nullopt;
}

// A mapping maps the file from `offset` on at `start`; the PT_LOAD segment
// holding that file offset gives its virtual address.
std::optional<uint64_t> ObjectFile::fileAddress(const Mapping& mapping, uint64_t address) const {
  if (!mapping.contains(address)) return std::nullopt;
  const uint64_t offset = address - mapping.start + mapping.offset;
  for (const Segment& s : segments_) {
    if (offset >= s.offset && offset < s.offset + s.fileSize) return offset - s.offset + s.address;
  }
  return std::nullopt;
}

std::optional<FunctionSymbol> ObjectFile::containing(uint64_t fileAddress) const {
  auto it = std::upper_bound(functions_.begin(), functions_.end(), fileAddress,
                             [](uint64_t a, const Function& f) { return a < f.address; });
  if (it == functions_.begin()) return std::nullopt;
  const Function& f = *std::prev(it);
  const bool inside = f.size != 0 ? fileAddress - f.address < f.size
                                  : it != functions_.end() && fileAddress < it->address;
  if (!inside) return std::nullopt;
  return FunctionSymbol{std::string_view(names_).substr(f.nameOffset, f.nameLength), f.address};
}

}  // namespace dtrace::sym
