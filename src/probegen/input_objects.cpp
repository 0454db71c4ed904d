#include "probegen/input_objects.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>

#include "probegen/probe_naming.h"

namespace dtrace::probegen {

namespace {

constexpr std::string_view kNoteSection = ".note.stapsdt";
constexpr std::string_view kNoteOwner = "stapsdt";
constexpr uint32_t kNoteType = 3;

// The provider and name of each note in one .note.stapsdt section. In a
// relocatable object the three addresses are still zero (relocations fill
// them), but their width is the class's.
void readNotes(Elf_Scn* scn, size_t addressSize, std::vector<NotedProbe>& probes) {
  Elf_Data* data = elf_getdata(scn, nullptr);
  if (!data || !data->d_buf) return;
  const char* bytes = static_cast<const char*>(data->d_buf);
  GElf_Nhdr nhdr;
  size_t nameOffset = 0, descOffset = 0;
  for (size_t offset = 0;
       (offset = gelf_getnote(data, offset, &nhdr, &nameOffset, &descOffset)) != 0;) {
    if (nhdr.n_type != kNoteType || nhdr.n_namesz != kNoteOwner.size() + 1 ||
        std::string_view(bytes + nameOffset, kNoteOwner.size()) != kNoteOwner) {
      continue;
    }
    std::string_view desc(bytes + descOffset, nhdr.n_descsz);
    if (desc.size() < 3 * addressSize) continue;
    desc.remove_prefix(3 * addressSize);
    const size_t providerEnd = desc.find('\0');
    if (providerEnd == std::string_view::npos) continue;
    const size_t nameEnd = desc.find('\0', providerEnd + 1);
    if (nameEnd == std::string_view::npos) continue;
    probes.push_back({std::string(desc.substr(0, providerEnd)),
                      std::string(desc.substr(providerEnd + 1, nameEnd - providerEnd - 1))});
  }
}

}  // namespace

Result<InputObject> readInputObject(const std::string& path) {
  if (elf_version(EV_CURRENT) == EV_NONE) return makeError("libelf is out of date");
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return makeError("failed to open " + path + ": " + std::strerror(errno));
  Elf* elf = elf_begin(fd, ELF_C_READ, nullptr);
  auto finish = [&](Result<InputObject> r) {
    if (elf) elf_end(elf);
    close(fd);
    return r;
  };
  if (!elf) return finish(makeError("failed to process " + path + ": " + elf_errmsg(-1)));
  switch (elf_kind(elf)) {
    case ELF_K_ELF:
      break;
    case ELF_K_AR:
      return finish(makeError(
          "archives are not permitted; use the contents of the archive instead: " + path));
    default:
      return finish(makeError("invalid file type: " + path));
  }
  GElf_Ehdr ehdr;
  if (!gelf_getehdr(elf, &ehdr)) return finish(makeError("corrupt file: " + path));
  if (ehdr.e_type != ET_REL) {
    return finish(makeError("not a relocatable object (as cc -c writes): " + path));
  }
  InputObject object;
  object.path = path;
  object.target = {ehdr.e_ident[EI_CLASS], ehdr.e_ident[EI_DATA], ehdr.e_machine};
  const size_t addressSize = object.target.elfClass == ELFCLASS32 ? 4 : 8;
  size_t names = 0;
  if (elf_getshdrstrndx(elf, &names) != 0) return finish(makeError("corrupt file: " + path));
  for (Elf_Scn* scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE) continue;
    const char* name = elf_strptr(elf, names, shdr.sh_name);
    if (name && kNoteSection == name) readNotes(scn, addressSize, object.probes);
  }
  return finish(std::move(object));
}

bool mixesClasses(const std::vector<InputObject>& inputs, int dataModel) {
  return dataModel == 0 && std::any_of(inputs.begin(), inputs.end(), [&](const auto& input) {
           return input.target.elfClass != inputs.front().target.elfClass;
         });
}

Result<ElfTarget> outputTarget(const std::vector<InputObject>& inputs, int dataModel) {
  ElfTarget target;
  if (dataModel == 32) target = {ELFCLASS32, ELFDATA2LSB, EM_386};
  if (dataModel == 64) target = {ELFCLASS64, ELFDATA2LSB, EM_X86_64};
  if (inputs.empty()) {
    if (target.elfClass == 0) target = {ELFCLASS64, ELFDATA2LSB, EM_X86_64};
    return target;
  }
  const ElfTarget& first = inputs.front().target;
  for (const InputObject& input : inputs) {
    if (dataModel != 0 && input.target.elfClass != target.elfClass) {
      return makeError("incorrect ELF class for object file: " + input.path);
    }
    if (input.target.machine != first.machine || input.target.dataEncoding != first.dataEncoding) {
      return makeError("incorrect ELF machine type for object file: " + input.path);
    }
  }
  return first;
}

Result<void> checkNotedProbes(const std::vector<InputObject>& inputs,
                              const std::vector<ProviderDefinition>& providers) {
  for (const InputObject& input : inputs) {
    for (const NotedProbe& noted : input.probes) {
      auto provider = std::find_if(providers.begin(), providers.end(),
                                   [&](const auto& p) { return p.name == noted.provider; });
      if (provider == providers.end()) continue;  // another library's probes
      const bool declared =
          std::any_of(provider->probes.begin(), provider->probes.end(),
                      [&](const auto& probe) { return probe.name == noted.name; });
      if (!declared) {
        return makeError("no such probe " + dtraceProbeName(noted.name) + " in " + input.path);
      }
    }
  }
  return {};
}

}  // namespace dtrace::probegen
