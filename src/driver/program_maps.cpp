// The maps of an enabled program: the globals, scratch and counters, the
// principal buffers, the aggregations' and dynamic variables' hash maps
// (sized as DTrace's kernel sizes its buffers), the arrays of maps that
// share them, and shared programs' probe tables.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>

#include "bpf/cpu_rings.h"
#include "driver/program.h"
#include "driver/thread_cpu_clock.h"
#include "driver/unwind_tables.h"
#include "ir/probe_table.h"
#include "util/cpu_list.h"
#include "util/thread_on_cpu.h"

namespace dtrace::driver {

struct Program::Maps {
  std::optional<bpf::Map> globals, scratch, counters, aggregationZero;
  std::optional<bpf::CpuRings> principal;    // one ring buffer per CPU
  std::optional<bpf::Map> speculationUsage;  // when a clause uses speculations
  std::vector<bpf::Map> aggregations;
  std::vector<bpf::Map> dynamics;
  std::vector<bpf::Map> mapArrays;         // codegen::Layout::mapArrays
  std::vector<bpf::Map> probeTables;       // one per shared program
  std::unique_ptr<UnwindTables> unwind;    // ustack() by call frame information
  std::optional<ThreadCpuClock> cpuClock;  // vtimestamp
  uint64_t* globalsValue = nullptr;        // mmapped: the state is only touched through atomic_ref
};

namespace {

// The unwind tables' room: every object's rows together (libc.so.6 takes
// 28,270, python3.11 64,572), 16 MiB of kernel memory.
constexpr uint32_t kUnwindRowCapacity = 1u << 20;

// Kernel bookkeeping per hash-map element (struct htab_elem), for sizing.
constexpr uint64_t kHashEntryOverhead = 48;

uint64_t nextPowerOfTwo(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

// The principal buffers: one ring buffer of `bufsize` bytes per possible
// CPU, as DTrace sizes them (a power of two: see docs/DIFFERENCES.md).
// With bufresize=auto (the default), as DTrace's kernel does, a size that
// cannot be allocated is halved until one can; the size granted goes back
// into `bufsize`, where dtrace(1M) finds it to report the lowering. As
// DTrace's kernel bounds the memory its buffers take, an automatic size
// stays within a sixteenth of physical memory (a 1g ring takes a quarter of
// a second to create, 2g several). With bufresize=manual the size is taken
// or refused.
Result<bpf::CpuRings> createPrincipalBuffers(OptionTable& options) {
  constexpr uint64_t kPageSize = 4096;
  constexpr uint64_t kLargestRing = uint64_t{1} << 31;  // a power of two in a u32
  const int cpus = bpf::Map::possibleCpus();
  const uint64_t bufsize = options.size("bufsize");
  uint64_t ringSize = nextPowerOfTwo(std::max<uint64_t>(bufsize, kPageSize));
  const bool autoResize = options.text("bufresize") != "manual";
  if (!autoResize && ringSize > kLargestRing) {
    return makeError("cannot create principal buffer: bufsize exceeds the largest ring (2g)");
  }
  if (autoResize) {
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    uint64_t limit = kLargestRing;
    if (pages > 0 && pageSize > 0) {
      const uint64_t memory = static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
      limit = std::min(limit, memory / 16 / static_cast<uint64_t>(std::max(cpus, 1)));
    }
    while (ringSize > kPageSize && ringSize > limit) ringSize >>= 1;
  }
  for (;;) {
    auto rings = bpf::CpuRings::create(cpus, static_cast<uint32_t>(ringSize));
    if (rings) {
      if (ringSize < bufsize) (void)options.set("bufsize", std::to_string(ringSize));
      return rings;
    }
    if (!autoResize || ringSize <= kPageSize) {
      return makeError("cannot create principal buffer: " + rings.error().message);
    }
    ringSize >>= 1;
  }
}

// Hash maps allocate their elements as they are stored, but `size` bytes
// of them (`perEntry` each, times `copies` for one per CPU) bound how many
// there may be. As DTrace's kernel lowers an aggsize or dynvarsize it
// cannot allocate (bufresize=auto), a size whose elements would take more
// than a sixteenth of physical memory, or that the kernel refuses (at most
// 2^27 buckets), is halved until the map can be created; `size` becomes
// the size granted. With bufresize=manual the size is taken or refused.
Result<bpf::Map> createSizedHash(const char* name, uint32_t keySize, uint32_t valueSize,
                                 uint64_t& size, uint64_t perEntry, uint64_t copies,
                                 uint64_t minEntries, bool autoResize) {
  auto entries = [&] {
    return std::clamp<uint64_t>(size / perEntry * copies, minEntries, UINT32_MAX);
  };
  if (autoResize) {
    long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    if (pages > 0 && pageSize > 0) {
      const uint64_t limit = static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize) / 16;
      while (size > perEntry && entries() * perEntry > limit) size >>= 1;
    }
  }
  for (;;) {
    auto map = bpf::Map::create(BPF_MAP_TYPE_HASH, name, keySize, valueSize,
                                static_cast<uint32_t>(entries()), BPF_F_NO_PREALLOC);
    if (map || !autoResize || entries() <= minEntries) return map;
    size >>= 1;
  }
}

}  // namespace

Program::Program(Compiler& compiler, OptionTable& options)
    : compiler_(compiler), options_(options) {}

Program::~Program() = default;

Result<void> Program::createMaps() {
  maps_ = std::make_unique<Maps>();
  auto globals =
      bpf::Map::create(BPF_MAP_TYPE_ARRAY, "dt_globals", 4, layout_.globalsSize, 1, BPF_F_MMAPABLE);
  if (!globals) return makeError("cannot create globals map: " + globals.error().message);
  maps_->globals.emplace(std::move(*globals));
  auto mapped = maps_->globals->mmapValue();
  if (!mapped) return makeError("cannot map globals: " + mapped.error().message);
  maps_->globalsValue = static_cast<uint64_t*>(*mapped);

  auto scratch = bpf::Map::create(BPF_MAP_TYPE_PERCPU_ARRAY, "dt_scratch", 4,
                                  (layout_.scratchSize + 7) / 8 * 8, 1);
  if (!scratch) return makeError("cannot create scratch map: " + scratch.error().message);
  maps_->scratch.emplace(std::move(*scratch));

  auto counters =
      bpf::Map::create(BPF_MAP_TYPE_PERCPU_ARRAY, "dt_counters", 4, sizeof(ir::Counters), 1);
  if (!counters) return makeError("cannot create counters map: " + counters.error().message);
  maps_->counters.emplace(std::move(*counters));

  if (layout_.unwindsUserStacks && options_.text("unwind") == "cfi") {
    auto unwind = UnwindTables::create(kUnwindRowCapacity);
    if (!unwind) return unwind.error();
    maps_->unwind = std::move(*unwind);
    for (int pid : processesWithProbes()) {
      if (pid > 0) maps_->unwind->addProcess(pid);
    }
  }

  if (layout_.threadCpuTime) {
    auto clock = ThreadCpuClock::start();
    if (!clock) return clock.error();
    maps_->cpuClock.emplace(std::move(*clock));
  }

  auto principal = createPrincipalBuffers(options_);
  if (!principal) return principal.error();
  maps_->principal.emplace(std::move(*principal));

  if (layout_.speculations > 0) {
    auto usage = bpf::Map::create(BPF_MAP_TYPE_PERCPU_ARRAY, "dt_spec_usage", 4,
                                  sizeof(ir::SpeculationUsage), layout_.speculations);
    if (!usage) return makeError("cannot create speculation map: " + usage.error().message);
    maps_->speculationUsage.emplace(std::move(*usage));
  }

  const bool autoResize = options_.text("bufresize") != "manual";
  if (auto r = createAggregationMaps(autoResize); !r) return r;
  if (auto r = createDynamicMaps(autoResize); !r) return r;
  return fillElementCaches();
}

// Every online CPU's element cache of every hash map, so that a probe may
// add several keys where interrupts are disabled (bpf::Map::fillElementCache).
Result<void> Program::fillElementCaches() {
  std::vector<bpf::Map*> hashes;
  for (bpf::Map& m : maps_->aggregations) hashes.push_back(&m);
  for (bpf::Map& m : maps_->dynamics) {
    if (m.type() == BPF_MAP_TYPE_HASH) hashes.push_back(&m);
  }
  if (hashes.empty()) return {};
  for (int cpu : onlineCpus()) {
    ThreadOnCpu onCpu(static_cast<uint32_t>(cpu));
    for (bpf::Map* m : hashes) {
      if (auto r = m->fillElementCache(); !r) {
        return makeError("cannot prepare map elements: " + r.error().message);
      }
    }
  }
  return {};
}

Result<void> Program::createAggregationMaps(bool autoResize) {
  // Entries are allocated as they are first used; `aggsize` (per CPU, as
  // in DTrace) bounds how many there may be, and a full map counts drops.
  const uint64_t aggsize = options_.size("aggsize");
  layout_.runtime.aggregationBytesPerCpu = aggsize;
  uint32_t largestValue = 8;
  for (ir::Aggregation& agg : layout_.aggregations) {
    const uint32_t mapKey = agg.keySize + ir::kAggregationCpuSlot;
    const uint64_t perEntry = mapKey + agg.valueSize() + kHashEntryOverhead;
    // As DTrace refuses an aggregation buffer that cannot hold one record.
    if (aggsize < agg.recordSize() + 8 * ir::kAggregationGenerationWords) {
      return makeError("Enabling exceeds size of buffer");
    }
    const uint64_t cpus = static_cast<uint64_t>(bpf::Map::possibleCpus());
    uint64_t size = aggsize;
    auto map =
        createSizedHash("dt_agg", mapKey, agg.valueSize(), size, perEntry, cpus, 1, autoResize);
    if (!map) return makeError("cannot create aggregation map: " + map.error().message);
    agg.maxEntries =
        static_cast<uint32_t>(std::clamp<uint64_t>(size / perEntry * cpus, 1, UINT32_MAX));
    if (size < options_.size("aggsize")) (void)options_.set("aggsize", std::to_string(size));
    layout_.runtime.aggregationBytesPerCpu = std::min(layout_.runtime.aggregationBytesPerCpu, size);
    maps_->aggregations.push_back(std::move(*map));
    largestValue = std::max(largestValue, agg.valueSize());
    // Generation 1 is the first: an entry made from the zero value
    // (generation 0) is always brought to the current one before use.
    maps_->globalsValue[agg.generationOffset / 8] = 1;
  }
  // The consumer reads the aggregations layOut() gave the program: they
  // hold as many entries as their maps were granted.
  for (size_t i = 0; i < layout_.aggregations.size(); i++) {
    ir_.aggregations.at(i).maxEntries = layout_.aggregations[i].maxEntries;
  }
  if (!layout_.aggregations.empty()) {
    auto zero = bpf::Map::create(BPF_MAP_TYPE_ARRAY, "dt_aggzero", 4, largestValue, 1);
    if (!zero) return makeError("cannot create aggregation map: " + zero.error().message);
    maps_->aggregationZero.emplace(std::move(*zero));
  }
  return {};
}

// Each dynamic variable gets a map of up to `dynvarsize` bytes of
// elements, allocated as elements are stored.
Result<void> Program::createDynamicMaps(bool autoResize) {
  // 0 is a size too: as few elements as a map may have.
  const uint64_t dynvarsize = options_.size("dynvarsize");
  for (const codegen::DynamicLayout& d : layout_.dynamics) {
    if (d.perTask) {
      auto map = bpf::Map::createTaskStorage("dt_self", d.valueSize);
      if (!map) return makeError("cannot create thread-local variable map: " + map.error().message);
      maps_->dynamics.push_back(std::move(*map));
      continue;
    }
    const uint64_t perEntry = d.keySize + d.valueSize + kHashEntryOverhead;
    uint64_t size = dynvarsize;
    auto map =
        createSizedHash("dt_dynvar", d.keySize, d.valueSize, size, perEntry, 1, 64, autoResize);
    if (!map) return makeError("cannot create dynamic variable map: " + map.error().message);
    if (size < options_.size("dynvarsize")) (void)options_.set("dynvarsize", std::to_string(size));
    maps_->dynamics.push_back(std::move(*map));
  }
  // Programs that would use more maps than the kernel allows one program
  // reach these through arrays of maps (codegen/map_sharing.h). A map
  // keeps its own size in its array: only key and value sizes must agree.
  for (const codegen::MapArray& array : layout_.mapArrays) {
    const std::vector<bpf::Map>& members =
        array.kind == codegen::MapKind::Aggregation ? maps_->aggregations : maps_->dynamics;
    auto outer = bpf::Map::createArrayOfMaps("dt_maps", members.at(array.members.front()).fd(),
                                             static_cast<uint32_t>(array.members.size()));
    if (!outer) return makeError("cannot create map array: " + outer.error().message);
    std::vector<int> fds;
    for (uint32_t member : array.members) fds.push_back(members.at(member).fd());
    if (auto r = outer->fillMapSlots(fds); !r) {
      return makeError("cannot fill map array: " + r.error().message);
    }
    maps_->mapArrays.push_back(std::move(*outer));
  }
  return {};
}

void Program::referToMaps(ir::MapFds& fds) const {
  auto refer = [this](const codegen::MapPlace& place, const bpf::Map& own) {
    if (!place.shared()) return ir::MapRef{own.fd()};
    return ir::MapRef{maps_->mapArrays.at(place.array).fd(), static_cast<int32_t>(place.slot)};
  };
  for (size_t i = 0; i < maps_->aggregations.size(); i++) {
    fds.aggregations.push_back(refer(layout_.aggregationPlaces.at(i), maps_->aggregations[i]));
  }
  for (size_t i = 0; i < maps_->dynamics.size(); i++) {
    fds.dynamics.push_back(refer(layout_.dynamics.at(i).place, maps_->dynamics[i]));
  }
}

Result<ir::MapFds> Program::mapFds(bool firedByConsumer) {
  ir::MapFds fds = mapFds();
  if (firedByConsumer) {
    fds.ownCpuRing = maps_->principal->ringFd(consumerCpu_);
  } else if (auto r = maps_->principal->fillArray(); !r) {
    return makeError("cannot set up the principal buffers: " + r.error().message);
  }
  return fds;
}

bool Program::unwindsByCfi() const { return maps_ && maps_->unwind; }

bool Program::unwindProcess(int pid) {
  if (!unwindsByCfi()) return false;
  const bool tabled = maps_->unwind->addProcess(pid);
  for (const std::string& warning : maps_->unwind->takeWarnings()) {
    std::fprintf(stderr, "dtrace: %s\n", warning.c_str());
  }
  return tabled;
}

bool Program::unwindsProcess(int pid) const {
  return unwindsByCfi() && maps_->unwind->hasProcess(pid);
}

// A process that had tables and is asked for again lost its entry to
// newer ones (the map keeps the most recently used): it is read again.
// One without any is not read twice.
void Program::unwindWanted(int pid) {
  if (unwindUntabled_.count(pid) == 0 && !unwindProcess(pid)) unwindUntabled_.insert(pid);
}

ir::MapFds Program::mapFds() const {
  ir::MapFds fds;
  fds.globals = maps_->globals->fd();
  fds.scratch = maps_->scratch->fd();
  fds.counters = maps_->counters->fd();
  fds.cpuRings = maps_->principal->arrayFd();
  fds.ringbufWakeBytes = maps_->principal->ringSize() / 4;
  if (maps_->speculationUsage) fds.speculationUsage = maps_->speculationUsage->fd();
  if (maps_->unwind) {
    fds.unwindRows = maps_->unwind->rowsFd();
    fds.unwindProcesses = maps_->unwind->processesFd();
  }
  if (maps_->cpuClock) {
    fds.threadCpuSums = maps_->cpuClock->sumsFd();
    fds.sliceStarts = maps_->cpuClock->sliceStartsFd();
  }
  referToMaps(fds);
  if (maps_->aggregationZero) fds.aggregationZero = maps_->aggregationZero->fd();
  return fds;
}

Result<int> Program::createProbeTable(std::span<ProbeEnabling* const> group) {
  const ir::ProbeTableEntry layout(static_cast<uint32_t>(group.front()->clauses.size()));
  auto table = bpf::Map::create(BPF_MAP_TYPE_ARRAY, "dt_probes", 4, layout.size(),
                                static_cast<uint32_t>(group.size()));
  if (!table) return makeError("cannot create probe table: " + table.error().message);
  std::vector<uint8_t> entry(layout.size());
  auto put = [&](uint32_t at, const std::string& text, uint32_t size) {
    const size_t n = std::min<size_t>(text.size(), size - 1);
    std::memcpy(entry.data() + at, text.data(), n);
  };
  for (uint32_t i = 0; i < group.size(); i++) {
    std::fill(entry.begin(), entry.end(), 0);
    const providers::Probe& p = *group[i]->probe;
    std::memcpy(entry.data() + ir::ProbeTableEntry::idOffset(), &p.id, 4);
    for (uint32_t k = 0; k < group[i]->clauses.size(); k++) {
      std::memcpy(entry.data() + layout.epidOffset(k), &group[i]->clauses[k].second, 4);
    }
    put(layout.moduleOffset(), p.module, ir::ProbeTableEntry::kModuleSize);
    put(layout.functionOffset(), p.function, ir::ProbeTableEntry::kFunctionSize);
    put(layout.nameOffset(), p.name, ir::ProbeTableEntry::kNameSize);
    if (auto r = table->update(&i, entry.data()); !r) {
      return makeError("cannot fill probe table: " + r.error().message);
    }
  }
  maps_->probeTables.push_back(std::move(*table));
  return maps_->probeTables.back().fd();
}

uint64_t* Program::globals() const { return maps_->globalsValue; }

const bpf::CpuRings& Program::principalBuffers() const { return *maps_->principal; }

std::vector<int> Program::aggregationFds() const {
  std::vector<int> fds;
  for (const bpf::Map& m : maps_->aggregations) fds.push_back(m.fd());
  return fds;
}

bool Program::readCounters(std::vector<ir::Counters>& values) const {
  values.resize(static_cast<size_t>(bpf::Map::possibleCpus()));
  uint32_t key = 0;
  return static_cast<bool>(maps_->counters->lookup(&key, values.data()));
}

}  // namespace dtrace::driver
