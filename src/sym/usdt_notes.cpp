#include "sym/usdt_notes.h"

#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <optional>

#include "sym/elf_symbols_by_name.h"
#include "util/fd.h"

namespace dtrace::sym {

namespace {

constexpr uint32_t kStapsdtNoteType = 3;
constexpr char kStapsdtOwner[] = "stapsdt";

struct ElfEnder {
  void operator()(Elf* e) const { elf_end(e); }
};

struct Section {
  size_t index = 0;
  std::string name;
  GElf_Shdr header{};
};

// What every note of one object is read against.
struct Object {
  Elf* elf = nullptr;
  bool relocatable = false;
  bool bigEndian = false;
  unsigned wordSize = 8;
  uint16_t machine = 0;
  std::vector<GElf_Phdr> loads;  // PT_LOAD
  std::vector<Section> sections;

  const Section* section(std::string_view name) const {
    for (const Section& s : sections) {
      if (s.name == name) return &s;
    }
    return nullptr;
  }
  const Section* sectionAt(size_t index) const {
    for (const Section& s : sections) {
      if (s.index == index) return &s;
    }
    return nullptr;
  }

  // The file offset of a virtual address: in a segment's file bytes, else
  // in an allocated section's. `pastFileBytes` also takes the rest of a
  // segment's memory (.bss): the semaphore's offset is what the kernel
  // turns back into an address through the data segment's file mapping,
  // which reaches the end of the segment's last file page.
  std::optional<uint64_t> fileOffset(uint64_t address, bool pastFileBytes) const {
    for (const GElf_Phdr& p : loads) {
      if (address >= p.p_vaddr && address - p.p_vaddr < p.p_filesz) {
        return p.p_offset + (address - p.p_vaddr);
      }
    }
    for (const Section& s : sections) {
      const GElf_Shdr& h = s.header;
      if ((h.sh_flags & SHF_ALLOC) && h.sh_type != SHT_NOBITS && address >= h.sh_addr &&
          address - h.sh_addr < h.sh_size) {
        return h.sh_offset + (address - h.sh_addr);
      }
    }
    if (pastFileBytes) {
      for (const GElf_Phdr& p : loads) {
        if (address >= p.p_vaddr && address - p.p_vaddr < p.p_memsz) {
          return p.p_offset + (address - p.p_vaddr);
        }
      }
    }
    return std::nullopt;
  }
};

Result<void> readLayout(Object& object) {
  GElf_Ehdr ehdr;
  if (!gelf_getehdr(object.elf, &ehdr)) return makeError(elf_errmsg(-1));
  object.relocatable = ehdr.e_type == ET_REL;
  object.bigEndian = ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
  object.wordSize = gelf_getclass(object.elf) == ELFCLASS32 ? 4 : 8;
  object.machine = ehdr.e_machine;
  size_t headers = 0;
  if (elf_getphdrnum(object.elf, &headers) == 0) {
    for (size_t i = 0; i < headers; i++) {
      GElf_Phdr ph;
      if (gelf_getphdr(object.elf, static_cast<int>(i), &ph) && ph.p_type == PT_LOAD) {
        object.loads.push_back(ph);
      }
    }
  }
  size_t names = 0;
  if (elf_getshdrstrndx(object.elf, &names) != 0) return makeError(elf_errmsg(-1));
  for (Elf_Scn* scn = elf_nextscn(object.elf, nullptr); scn; scn = elf_nextscn(object.elf, scn)) {
    Section s;
    if (!gelf_getshdr(scn, &s.header)) continue;
    s.index = elf_ndxscn(scn);
    const char* name = elf_strptr(object.elf, names, s.header.sh_name);
    s.name = name ? name : "";
    object.sections.push_back(std::move(s));
  }
  return {};
}

uint64_t readWord(const uint8_t* p, unsigned size, bool bigEndian) {
  uint64_t value = 0;
  for (unsigned i = 0; i < size; i++) {
    const unsigned byte = bigEndian ? i : size - 1 - i;
    value = value << 8 | p[byte];
  }
  return value;
}

// A word of a .o's note as its relocation makes it: an offset in a section.
struct Placed {
  uint64_t value = 0;
  // SHN_UNDEF: no section, either because the word has no relocation
  // (the value is the word itself) or because its symbol is defined
  // elsewhere (the value is 0).
  size_t section = SHN_UNDEF;
};

// The relocations of one section of a .o, by the offset they patch.
class Relocations {
 public:
  Relocations(const Object& object, size_t target) {
    for (const Section& s : object.sections) {
      if ((s.header.sh_type != SHT_RELA && s.header.sh_type != SHT_REL) ||
          s.header.sh_info != target) {
        continue;
      }
      Elf_Scn* scn = elf_getscn(object.elf, s.index);
      Elf_Scn* symtab = elf_getscn(object.elf, s.header.sh_link);
      Elf_Data* data = scn ? elf_getdata(scn, nullptr) : nullptr;
      symbols_ = symtab ? elf_getdata(symtab, nullptr) : nullptr;
      if (!data || !symbols_ || s.header.sh_entsize == 0) continue;
      const size_t count = s.header.sh_size / s.header.sh_entsize;
      for (size_t i = 0; i < count; i++) {
        if (s.header.sh_type == SHT_RELA) {
          GElf_Rela r;
          if (!gelf_getrela(data, static_cast<int>(i), &r)) break;
          byOffset_[r.r_offset] = {GELF_R_SYM(r.r_info), r.r_addend, true};
        } else {
          GElf_Rel r;
          if (!gelf_getrel(data, static_cast<int>(i), &r)) break;
          byOffset_[r.r_offset] = {GELF_R_SYM(r.r_info), 0, false};
        }
      }
    }
  }

  // The word at `offset` in the section, holding `word`. Every relocation
  // a note's address words get is absolute (S + A): the symbol's offset in
  // its section plus the addend, in the section's bytes for REL.
  Placed place(uint64_t offset, uint64_t word) const {
    auto it = byOffset_.find(offset);
    if (it == byOffset_.end()) return {word, SHN_UNDEF};
    GElf_Sym sym;
    if (!gelf_getsym(symbols_, static_cast<int>(it->second.symbol), &sym) ||
        sym.st_shndx == SHN_UNDEF || sym.st_shndx == SHN_COMMON || sym.st_shndx >= SHN_LORESERVE) {
      return {0, SHN_UNDEF};
    }
    const uint64_t addend = it->second.hasAddend ? it->second.addend : word;
    return {sym.st_value + addend, sym.st_shndx};
  }

 private:
  struct Entry {
    uint64_t symbol = 0;
    int64_t addend = 0;
    bool hasAddend = false;
  };
  std::map<uint64_t, Entry> byOffset_;
  Elf_Data* symbols_ = nullptr;
};

// A note's descriptor, as written.
struct Descriptor {
  uint64_t pc = 0, base = 0, semaphore = 0;
  std::string provider, name, args;
};

// The strings after the addresses; false when one is not terminated.
bool readStrings(const char* p, size_t size, Descriptor& d) {
  std::string* fields[] = {&d.provider, &d.name, &d.args};
  size_t i = 0;
  for (std::string* field : fields) {
    if (i == size && field == &d.args) break;  // no argument string at all
    const void* nul = std::memchr(p + i, '\0', size - i);
    if (!nul) return false;
    const size_t length = static_cast<const char*>(nul) - (p + i);
    field->assign(p + i, length);
    i += length + 1;
  }
  return !d.provider.empty() && !d.name.empty();
}

bool understandsArguments(uint16_t machine) { return machine == EM_X86_64 || machine == EM_386; }

class NoteReader {
 public:
  explicit NoteReader(const Object& object) : object_(object) {}

  void readSection(const Section& notes, std::vector<UsdtSite>& sites) {
    Elf_Scn* scn = elf_getscn(object_.elf, notes.index);
    Elf_Data* data = scn ? elf_getdata(scn, nullptr) : nullptr;
    if (!data || !data->d_buf) return;
    std::optional<Relocations> relocations;
    if (object_.relocatable) relocations.emplace(object_, notes.index);
    size_t offset = 0;
    GElf_Nhdr header;
    size_t nameOffset = 0, descOffset = 0;
    while (size_t next = gelf_getnote(data, offset, &header, &nameOffset, &descOffset)) {
      const auto* bytes = static_cast<const uint8_t*>(data->d_buf);
      offset = next;
      if (header.n_type != kStapsdtNoteType || header.n_namesz != sizeof kStapsdtOwner ||
          std::memcmp(bytes + nameOffset, kStapsdtOwner, sizeof kStapsdtOwner) != 0) {
        continue;
      }
      const unsigned w = object_.wordSize;
      if (header.n_descsz < 3 * w) continue;
      const uint8_t* desc = bytes + descOffset;
      Descriptor d;
      d.pc = readWord(desc, w, object_.bigEndian);
      d.base = readWord(desc + w, w, object_.bigEndian);
      d.semaphore = readWord(desc + 2 * w, w, object_.bigEndian);
      if (!readStrings(reinterpret_cast<const char*>(desc + 3 * w), header.n_descsz - 3 * w, d)) {
        continue;
      }
      UsdtSite site;
      if (relocations) {
        placeRelocatable(d, *relocations, data->d_off + descOffset, site);
      } else {
        placeLinked(d, site);
      }
      site.provider = std::move(d.provider);
      site.name = std::move(d.name);
      readArguments(d.args, site);
      sites.push_back(std::move(site));
    }
  }

 private:
  void placeLinked(const Descriptor& d, UsdtSite& site) const {
    // prelink moves sections but not the note's words: .stapsdt.base,
    // where the note said it was, says by how much.
    uint64_t moved = 0;
    const Section* base = object_.section(".stapsdt.base");
    if (base && d.base != 0) moved = base->header.sh_addr - d.base;
    site.address = d.pc + moved;
    site.fileOffset = object_.fileOffset(site.address, false).value_or(0);
    if (d.semaphore != 0) {
      site.semaphore = d.semaphore + moved;
      site.semaphoreFileOffset = object_.fileOffset(site.semaphore, true).value_or(0);
    }
  }

  void placeRelocatable(const Descriptor& d, const Relocations& relocations, uint64_t descOffset,
                        UsdtSite& site) const {
    const unsigned w = object_.wordSize;
    const Placed pc = relocations.place(descOffset, d.pc);
    site.address = pc.value;
    if (const Section* s = object_.sectionAt(pc.section)) {
      site.section = s->name;
      if (s->header.sh_type != SHT_NOBITS) site.fileOffset = s->header.sh_offset + pc.value;
    }
    const Placed semaphore = relocations.place(descOffset + 2 * w, d.semaphore);
    if (const Section* s = object_.sectionAt(semaphore.section)) {
      site.semaphore = semaphore.value;
      site.semaphoreSection = s->name;
      if (s->header.sh_type != SHT_NOBITS) {
        site.semaphoreFileOffset = s->header.sh_offset + semaphore.value;
      }
    }
  }

  void readArguments(std::string_view specs, UsdtSite& site) {
    if (specs.find_first_not_of(" \t") == std::string_view::npos) return;
    if (!understandsArguments(object_.machine)) {
      site.argError = "argument specs for ELF machine " + std::to_string(object_.machine) +
                      " are not understood (only x86's are)";
      return;
    }
    const uint64_t near = site.address;
    UsdtArgumentList list =
        parseUsdtArguments(specs, [&](std::string_view name) { return lookup(name, near); });
    site.args = std::move(list.args);
    site.argError = std::move(list.error);
  }

  Result<uint64_t> lookup(std::string_view name, uint64_t near) {
    if (!symbols_) symbols_.emplace(object_.elf);
    auto value = symbols_->find(name, near);
    if (value || name != "_GLOBAL_OFFSET_TABLE_") return value;
    // Stripped objects still have the GOT's section: i386 points
    // _GLOBAL_OFFSET_TABLE_ at .got.plt, or at .got when there is no PLT.
    for (const char* got : {".got.plt", ".got"}) {
      if (const Section* s = object_.section(got)) return s->header.sh_addr;
    }
    return value;
  }

  const Object& object_;
  std::optional<ElfSymbolsByName> symbols_;  // read when a spec names a symbol
};

}  // namespace

Result<std::vector<UsdtSite>> readUsdtSites(const std::string& path) {
  static const bool initialized = elf_version(EV_CURRENT) != EV_NONE;
  if (!initialized) return makeError("libelf: " + std::string(elf_errmsg(-1)));
  Fd fd{open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (!fd) return makeError(path + ": " + std::strerror(errno));
  std::unique_ptr<Elf, ElfEnder> elf(elf_begin(fd.get(), ELF_C_READ_MMAP, nullptr));
  if (!elf || elf_kind(elf.get()) != ELF_K_ELF) return makeError(path + ": not an ELF object");
  Object object;
  object.elf = elf.get();
  if (auto layout = readLayout(object); !layout) {
    return makeError(path + ": " + layout.error().message);
  }
  std::vector<UsdtSite> sites;
  NoteReader reader(object);
  for (const Section& s : object.sections) {
    if (s.header.sh_type == SHT_NOTE && s.name == ".note.stapsdt") reader.readSection(s, sites);
  }
  return sites;
}

}  // namespace dtrace::sym
