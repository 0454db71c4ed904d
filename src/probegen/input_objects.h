// dtrace -G's object operands: the relocatable objects the generated
// object will be linked with. Their ELF class and machine decide the
// output's, and the stapsdt notes the header's macros left in them name
// the probes they use.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "probegen/provider_model.h"
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

// Without -32/-64 (`dataModel` 0), dtrace takes the data model from the
// objects, and refuses a set that has both classes: true for such a set.
bool mixesClasses(const std::vector<InputObject>& inputs, int dataModel);

// The ELF target of dtrace -G's object: the objects', which must agree
// with each other and with -32/-64 (32 or 64), or without objects the
// data model's on x86 (x86-64 by default). Fails with "incorrect ELF
// class for object file: x.o" or "incorrect ELF machine type ...".
Result<ElfTarget> outputTarget(const std::vector<InputObject>& inputs, int dataModel);

// Refuses a probe site of one of `providers` that their definitions do
// not declare ("no such probe query-start in x.o"): the object was built
// with another version of the header. Other providers' sites are not
// dtrace's business.
Result<void> checkNotedProbes(const std::vector<InputObject>& inputs,
                              const std::vector<ProviderDefinition>& providers);

}  // namespace dtrace::probegen
