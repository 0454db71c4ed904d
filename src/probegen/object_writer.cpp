#include "probegen/object_writer.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "probegen/output_file.h"
#include "probegen/probe_naming.h"
#include "sym/provider_section.h"

namespace dtrace::probegen {

namespace {

constexpr uint64_t kSemaphoreSize = 2;  // unsigned short, as the header declares it

// A string table under construction: offsets of names added so far.
class StringTable {
 public:
  uint32_t add(std::string_view name) {
    const auto offset = static_cast<uint32_t>(bytes_.size());
    bytes_.append(name);
    bytes_ += '\0';
    return offset;
  }
  std::string& bytes() { return bytes_; }

 private:
  std::string bytes_{std::string(1, '\0')};
};

// Section contents, which must outlive elf_update().
struct Contents {
  std::string probes;     // the semaphores, zero
  std::string providers;  // .dtrace_providers
  std::string symbols;    // .symtab, filled through gelf_update_sym
  std::string noBytes;    // .note.GNU-stack
  StringTable strtab, shstrtab;
};

class Writer {
 public:
  Writer(Elf* elf, StringTable& sectionNames) : elf_(elf), names_(sectionNames) {}

  struct Section {
    size_t index = 0;
    Elf_Data* data = nullptr;
  };

  // A section holding `bytes` (in the file's layout for ELF_T_BYTE, in
  // memory layout for other types, which libelf converts).
  Section add(std::string_view name, uint32_t type, uint64_t flags, uint64_t align,
              std::string& bytes, Elf_Type dataType = ELF_T_BYTE, uint32_t link = 0,
              uint32_t info = 0, uint64_t entsize = 0) {
    const uint32_t nameOffset = names_.add(name);  // before `bytes` may be the names
    Elf_Scn* scn = elf_newscn(elf_);
    Elf_Data* data = scn ? elf_newdata(scn) : nullptr;
    GElf_Shdr shdr;
    if (!data || !gelf_getshdr(scn, &shdr)) {
      failed_ = true;
      return {};
    }
    data->d_buf = bytes.empty() ? nullptr : bytes.data();
    data->d_size = bytes.size();
    data->d_type = dataType;
    data->d_align = align;
    data->d_version = EV_CURRENT;
    shdr.sh_name = nameOffset;
    shdr.sh_type = type;
    shdr.sh_flags = flags;
    shdr.sh_addralign = align;
    shdr.sh_link = link;
    shdr.sh_info = info;
    shdr.sh_entsize = entsize;
    failed_ |= !gelf_update_shdr(scn, &shdr);
    return {elf_ndxscn(scn), data};
  }
  bool failed() const { return failed_; }

 private:
  Elf* elf_;
  StringTable& names_;
  bool failed_ = false;
};

Result<void> writeElf(int fd, const std::vector<ProviderDefinition>& providers,
                      const ElfTarget& target, std::string_view source) {
  Elf* elf = elf_begin(fd, ELF_C_WRITE, nullptr);
  if (!elf) return makeError(elf_errmsg(-1));
  auto fail = [&]() {
    Error e = makeError(elf_errmsg(-1));
    elf_end(elf);
    return e;
  };
  if (!gelf_newehdr(elf, target.elfClass)) return fail();
  GElf_Ehdr ehdr;
  if (!gelf_getehdr(elf, &ehdr)) return fail();
  ehdr.e_ident[EI_DATA] = target.dataEncoding;
  ehdr.e_ident[EI_OSABI] = ELFOSABI_NONE;
  ehdr.e_type = ET_REL;
  ehdr.e_machine = target.machine;
  ehdr.e_version = EV_CURRENT;

  Contents c;
  const DataModel model = target.elfClass == ELFCLASS32 ? DataModel::ILP32 : DataModel::LP64;
  std::vector<sym::ProviderDefinition> described;
  std::vector<std::string> semaphores;
  for (const ProviderDefinition& provider : providers) {
    described.push_back(sectionForm(provider, model));
    for (const ProbeDefinition& probe : provider.probes) {
      semaphores.push_back(semaphoreName(provider.name, probe.name));
    }
  }
  c.providers = sym::encodeProviderSection(described);
  c.probes.assign(semaphores.size() * kSemaphoreSize, '\0');

  Writer w(elf, c.shstrtab);
  size_t probesIndex = 0;
  if (!semaphores.empty()) {
    probesIndex =
        w.add(".probes", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, kSemaphoreSize, c.probes).index;
  }
  w.add(".note.GNU-stack", SHT_PROGBITS, 0, 1, c.noBytes);
  w.add(sym::kProviderSectionName, SHT_PROGBITS, 0, 1, c.providers);

  // Symbols: the null symbol and the source file locally, then every
  // semaphore, hidden: each program or library counts its own.
  std::vector<GElf_Sym> symbols(1);
  symbols.push_back({.st_name = c.strtab.add(source),
                     .st_info = GELF_ST_INFO(STB_LOCAL, STT_FILE),
                     .st_other = 0,
                     .st_shndx = SHN_ABS,
                     .st_value = 0,
                     .st_size = 0});
  const auto firstGlobal = static_cast<uint32_t>(symbols.size());
  for (size_t i = 0; i < semaphores.size(); i++) {
    symbols.push_back({.st_name = c.strtab.add(semaphores[i]),
                       .st_info = GELF_ST_INFO(STB_GLOBAL, STT_OBJECT),
                       .st_other = STV_HIDDEN,
                       .st_shndx = static_cast<uint16_t>(probesIndex),
                       .st_value = i * kSemaphoreSize,
                       .st_size = kSemaphoreSize});
  }
  const size_t strtabIndex = w.add(".strtab", SHT_STRTAB, 0, 1, c.strtab.bytes()).index;
  // Room for the entries in memory layout (GElf_Sym is the larger one);
  // the data's size is then cut to the class's.
  const size_t symSize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
  c.symbols.assign(symbols.size() * sizeof(GElf_Sym), '\0');
  Writer::Section symtab =
      w.add(".symtab", SHT_SYMTAB, 0, target.elfClass == ELFCLASS32 ? 4 : 8, c.symbols, ELF_T_SYM,
            static_cast<uint32_t>(strtabIndex), firstGlobal, symSize);
  if (w.failed()) return fail();
  symtab.data->d_size = symbols.size() * symSize;
  for (size_t i = 0; i < symbols.size(); i++) {
    if (!gelf_update_sym(symtab.data, static_cast<int>(i), &symbols[i])) return fail();
  }
  const size_t shstrtabIndex = w.add(".shstrtab", SHT_STRTAB, 0, 1, c.shstrtab.bytes()).index;
  if (w.failed()) return fail();
  ehdr.e_shstrndx = static_cast<uint16_t>(shstrtabIndex);
  if (!gelf_update_ehdr(elf, &ehdr)) return fail();
  if (elf_update(elf, ELF_C_WRITE) < 0) return fail();
  elf_end(elf);
  return {};
}

}  // namespace

Result<void> writeProviderObject(const std::string& path,
                                 const std::vector<ProviderDefinition>& providers,
                                 const ElfTarget& target, std::string_view source) {
  if (elf_version(EV_CURRENT) == EV_NONE) return makeError("libelf is out of date");
  return writeOutputFile(path, {"failed to open " + path, "failed to write " + path},
                         [&](int fd) { return writeElf(fd, providers, target, source); });
}

}  // namespace dtrace::probegen
