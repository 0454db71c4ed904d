// An object's loadable segments (PT_LOAD), to turn a mapping's file offset
// into the object's virtual address without reading its symbols.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace dtrace::sym {

struct LoadSegment {
  uint64_t offset = 0;   // in the file
  uint64_t address = 0;  // the object's virtual address
  uint64_t fileSize = 0;
};

// Empty when the file cannot be read as ELF.
std::vector<LoadSegment> readLoadSegments(const std::string& path);

// The virtual address of the byte at `fileOffset`, if a segment loads it.
std::optional<uint64_t> addressAtFileOffset(const std::vector<LoadSegment>& segments,
                                            uint64_t fileOffset);

}  // namespace dtrace::sym
