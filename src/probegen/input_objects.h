// dtrace -G's object operands: the relocatable objects the generated
// object will be linked with. Their ELF class and machine decide the
// output's, and the stapsdt notes the header's macros left in them name
// the probes they use.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "util/result.h"

namespace dtrace::probegen {

// What an ELF file is: its class (ELFCLASS32 or ELFCLASS64), data encoding
// (ELFDATA2LSB or ELFDATA2MSB) and machine (EM_X86_64, ...).
struct ElfTarget {
  unsigned char elfClass = 0;
  unsigned char dataEncoding = 0;
  uint16_t machine = 0;
  bool operator==(const ElfTarget&) const = default;
};

// A probe site's note: provider and probe name as the note holds them.
struct NotedProbe {
  std::string provider;
  std::string name;
};

struct InputObject {
  std::string path;
  ElfTarget target;
  std::vector<NotedProbe> probes;  // from .note.stapsdt, in order
};

// Reads one operand. Fails with libdtrace's words (without "dtrace: "):
// "failed to open x.o: No such file or directory", "invalid file type:
// x.o", "archives are not permitted; use the contents of the archive
// instead: libx.a", or when it is an ELF file but not a relocatable object.
Result<InputObject> readInputObject(const std::string& path);

}  // namespace dtrace::probegen
