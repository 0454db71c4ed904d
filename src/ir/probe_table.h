// A program shared by a group of probes tells them apart by the low 32
// bits of its attach cookie, the key of the group's probe table: an array
// whose entries hold each probe's ID, the EPID of each of the program's
// clauses for it, and its module, function and name. The driver fills it;
// generated code reads it.
#pragma once

#include <cstdint>

namespace dtrace::ir {

struct ProbeTableEntry {
  static constexpr uint32_t kModuleSize = 64, kFunctionSize = 128, kNameSize = 64;
  explicit ProbeTableEntry(uint32_t clauseCount) : clauses(clauseCount) {}
  uint32_t clauses;
  static constexpr uint32_t idOffset() { return 0; }
  uint32_t epidOffset(uint32_t clause) const { return 4 + 4 * clause; }
  uint32_t moduleOffset() const { return (4 + 4 * clauses + 7) / 8 * 8; }
  uint32_t functionOffset() const { return moduleOffset() + kModuleSize; }
  uint32_t nameOffset() const { return functionOffset() + kFunctionSize; }
  uint32_t size() const { return nameOffset() + kNameSize; }
};

}  // namespace dtrace::ir
