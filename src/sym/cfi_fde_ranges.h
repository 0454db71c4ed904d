// The address ranges that the FDEs of one call-frame-information section
// (.eh_frame or .debug_frame) describe. libdw answers "what is the frame
// state at this address" but has no way to list which addresses an object
// describes; this walks the section's entries to find out.
#pragma once

#include <libelf.h>

#include <cstdint>
#include <vector>

namespace dtrace::sym {

struct FdeRange {
  uint64_t start = 0;        // the section's own addresses (the object's virtual addresses)
  uint64_t end = 0;          // exclusive
  bool signalFrame = false;  // the CIE's 'S' augmentation
};

// The FDEs of the section named `sectionName` in `elf` (".eh_frame" or
// ".debug_frame"), in section order; empty when it is absent or holds no
// data. FDEs of discarded code (address 0) and empty ones are left out.
std::vector<FdeRange> fdeRanges(Elf* elf, const char* sectionName);

}  // namespace dtrace::sym
