// dtrace -G's output: an ELF relocatable object that defines the
// semaphore of every probe the providers declare (an unsigned short each,
// hidden, in the writable .probes section, which stays file-backed so the
// kernel can raise it), carries the providers' argument types in the
// non-allocated .dtrace_providers section (sym/provider_section.h), and
// has an empty .note.GNU-stack so that linking it keeps the stack
// non-executable. The objects it is linked with are left untouched.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "probegen/input_objects.h"
#include "probegen/provider_model.h"
#include "util/result.h"

namespace dtrace::probegen {

// Writes the object to `path` (output_file.h). `source` names the
// object's STT_FILE symbol.
Result<void> writeProviderObject(const std::string& path,
                                 const std::vector<ProviderDefinition>& providers,
                                 const ElfTarget& target, std::string_view source);

}  // namespace dtrace::probegen
