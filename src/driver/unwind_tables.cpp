#include "driver/unwind_tables.h"

#include <algorithm>
#include <cstring>

#include "providers/uprobe_provider.h"
#include "sym/cfi_table.h"

namespace dtrace::driver {

namespace {

constexpr uint32_t kRowStride = 16;  // an array map's value slots are 8-byte aligned
constexpr uint32_t kProcesses = 4096;

ir::UnwindRow packed(const sym::CfiRow& row) {
  ir::UnwindRow out{};
  out.address = static_cast<uint32_t>(row.address);
  out.cfaOffset = row.cfaOffset;
  out.bpOffset = static_cast<int16_t>(row.bpOffset);
  switch (row.rule) {
    case sym::CfiRow::Rule::SpOffset:
      out.rule = ir::kUnwindSpOffset;
      break;
    case sym::CfiRow::Rule::BpOffset:
      out.rule = ir::kUnwindBpOffset;
      break;
    case sym::CfiRow::Rule::SignalFrame:
      out.rule = ir::kUnwindSignalFrame;
      break;
    case sym::CfiRow::Rule::Unknown:
      out.rule = ir::kUnwindUnknown;
      break;
  }
  // An offset a row cannot hold makes the row useless: frame pointers.
  if (row.bpOffset != out.bpOffset) out.rule = ir::kUnwindUnknown;
  return out;
}

}  // namespace

Result<std::unique_ptr<UnwindTables>> UnwindTables::create(uint32_t rowCapacity) {
  Result<bpf::Map> rows = bpf::Map::create(BPF_MAP_TYPE_ARRAY, "dt_unwind_rows", 4,
                                           sizeof(ir::UnwindRow), rowCapacity, BPF_F_MMAPABLE);
  if (!rows) return makeError("cannot create the unwind tables: " + rows.error().message);
  Result<void*> mapped = rows->mmapValue();
  if (!mapped) return makeError("cannot map the unwind tables: " + mapped.error().message);
  // Least recently used entries make room: those of processes long gone.
  Result<bpf::Map> processes = bpf::Map::create(BPF_MAP_TYPE_LRU_HASH, "dt_unwind_procs", 4,
                                                sizeof(ir::UnwindProcess), kProcesses);
  if (!processes) return makeError("cannot create the unwind tables: " + processes.error().message);
  auto* bytes = static_cast<uint8_t*>(*mapped);
  return std::unique_ptr<UnwindTables>(
      new UnwindTables(std::move(*rows), std::move(*processes), bytes, rowCapacity));
}

const UnwindTables::ObjectRows& UnwindTables::objectRows(const sym::Mapping& mapping,
                                                         const std::string& path) {
  auto [it, added] = objects_.try_emplace({mapping.device, mapping.inode});
  ObjectRows& object = it->second;
  if (!added) return object;
  object.segments = sym::readLoadSegments(path);
  Result<std::vector<sym::CfiRow>> rows = sym::compileCfi(path);
  if (!rows || rows->empty()) return object;
  if (rows->back().address > UINT32_MAX) return object;  // rows hold 32-bit addresses
  if (rows->size() > capacity_ - used_) {
    if (!warnedFull_) {
      warnings_.push_back("unwind tables full: stacks through " + mapping.path +
                          " and later objects follow frame pointers");
      warnedFull_ = true;
    }
    return object;
  }
  object.first = used_;
  object.count = static_cast<uint32_t>(rows->size());
  for (const sym::CfiRow& row : *rows) {
    const ir::UnwindRow value = packed(row);
    std::memcpy(mapped_ + static_cast<size_t>(used_) * kRowStride, &value, sizeof value);
    used_++;
  }
  return object;
}

bool UnwindTables::addProcess(int pid) {
  processesSeen_.insert(pid);
  ir::UnwindProcess value{};
  for (const sym::Mapping& m : sym::readExecutableMappings(pid)) {
    if (!m.isFile() || value.count == ir::kUnwindMappingsPerProcess) continue;
    const ObjectRows& rows = objectRows(m, providers::uprobePath(pid, m));
    if (rows.count == 0) continue;
    const std::optional<uint64_t> address = sym::addressAtFileOffset(rows.segments, m.offset);
    if (!address) continue;
    value.mappings[value.count++] = {m.start, m.end, m.start - *address, rows.first, rows.count};
  }
  if (value.count == 0) return false;
  std::sort(
      value.mappings, value.mappings + value.count,
      [](const ir::UnwindMapping& a, const ir::UnwindMapping& b) { return a.start < b.start; });
  const auto key = static_cast<uint32_t>(pid);
  return processes_.update(&key, &value).ok();
}

}  // namespace dtrace::driver
