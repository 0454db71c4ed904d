// The kernel's vDSO, whose code every process maps as "[vdso]" with no
// file behind it: its function symbols, read from dtrace's own copy (the
// kernel maps the same image into every process of its ABI).
#pragma once

#include <cstdint>
#include <memory>

#include "sym/object_file.h"

namespace dtrace::sym {

struct VdsoImage {
  std::shared_ptr<const ObjectFile> object;  // no symbols when unreadable
  uint64_t size = 0;                         // of dtrace's mapping of it
};

// Read once, when first wanted.
const VdsoImage& vdsoImage();

}  // namespace dtrace::sym
