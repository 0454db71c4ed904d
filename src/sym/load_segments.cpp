#include "sym/load_segments.h"

#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include "util/fd.h"

namespace dtrace::sym {

std::vector<LoadSegment> readLoadSegments(const std::string& path) {
  std::vector<LoadSegment> out;
  const Fd fd(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd || elf_version(EV_CURRENT) == EV_NONE) return out;
  Elf* elf = elf_begin(fd.get(), ELF_C_READ_MMAP, nullptr);
  if (!elf) return out;
  size_t headers = 0;
  if (elf_getphdrnum(elf, &headers) == 0) {
    for (size_t i = 0; i < headers; i++) {
      GElf_Phdr ph;
      if (gelf_getphdr(elf, static_cast<int>(i), &ph) && ph.p_type == PT_LOAD) {
        out.push_back({ph.p_offset, ph.p_vaddr, ph.p_filesz});
      }
    }
  }
  elf_end(elf);
  return out;
}

std::optional<uint64_t> addressAtFileOffset(const std::vector<LoadSegment>& segments,
                                            uint64_t fileOffset) {
  for (const LoadSegment& s : segments) {
    if (fileOffset >= s.offset && fileOffset < s.offset + s.fileSize) {
      return fileOffset - s.offset + s.address;
    }
  }
  return std::nullopt;
}

}  // namespace dtrace::sym
