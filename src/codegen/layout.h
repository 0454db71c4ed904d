// Storage layout of an enabling, fixed before any program is generated:
// globals in one array-map value, clause-local variables and the record
// being built in a per-CPU scratch value, and for every clause the record
// fields its actions write (the same for every probe the clause enables).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "codegen/map_sharing.h"
#include "ir/program.h"
#include "ir/runtime_config.h"
#include "parse/ast.h"
#include "sema/symbols.h"

namespace dtrace::codegen {

// The runtime protocol (ir/runtime.h) as the emitter names it.
using ir::Activity;
using ir::Counters;
using ir::kExitOffset;
using ir::kExitRequested;
using ir::kFirstGlobalOffset;
using ir::kStateOffset;
using ir::kWallClockOffset;

// A scalar D variable (a global, clause-local or thread-local scalar, or an
// associative array's element) holds a whole 64-bit register, as DIF's
// STGS, STLS and STTS store it (illumos dt_cg_asgn_op): an `int` variable
// later given a 64-bit value keeps all of it. Values are narrowed where
// they are stored to memory (dt_cg_store), recorded, or cast.
bool holdsRegister(const sema::Variable& v);

struct ActionLayout {
  ir::Action action;
  int index = 0;  // position among the clause's actions (bit in the action mask)
};

struct ClauseLayout {
  ast::ProbeClause* clause = nullptr;
  std::map<const ast::Expr*, ActionLayout> actions;  // keyed by the action's Call node
  std::vector<ir::Action> orderedActions;
  bool recordsData = false;  // writes a record (data actions, or empty clause)
  // speculate(): the record goes to a speculation, its tag at this offset
  // of the data (the Speculate action's field).
  std::optional<uint32_t> speculationTagOffset;
  bool hasActionMask = false;
  uint32_t dataSize = 0;
  bool usesPerTask = false;  // reads or stores a DynamicLayout::perTask variable
};

// A dynamic variable's map: an associative array keyed by its tuple, or a
// thread-local keyed by the thread (pid_tgid).
struct DynamicLayout {
  std::vector<ir::Field> keys;  // empty for a thread-local
  // The map's key and value: the variable's own, or its shared map
  // array's shape (zero-padded beyond the variable's bytes).
  uint32_t keySize = 8;
  uint32_t valueSize = 8;
  uint32_t ownValueSize = 8;  // the bytes of the variable's value
  MapPlace place;
  // A thread-local integer or pointer that a program names directly lives
  // in task-local storage (one element per thread, found from the task
  // itself, freed when the thread exits) instead of a hash map keyed by
  // the thread: no key to build and hash, and storing 0 clears the
  // element in place instead of freeing it.
  bool perTask = false;
};

// Nested dynamic-variable reads (a[b[i]]) build each key in its own area,
// at least this many, more where a program nests deeper.
constexpr uint32_t kMinDynamicKeyLevels = 4;
constexpr uint32_t kLoopStateWords = 16;
constexpr uint32_t kStoreStateWords = 3;
constexpr uint32_t kAllocaSize = 2048;  // the scratchsize option's default
// Kernel frames looked through for the end of a probe's BPF machinery:
// the four it may have (program, bpf_trace_runN, __bpf_trace stub,
// __traceiter) and one to spare.
constexpr uint32_t kMachineryScanFrames = 5;

struct Layout {
  uint32_t globalsSize = kFirstGlobalOffset;
  // Scratch value: [record | aggregation key | this-> vars | fault record]
  uint32_t recordOffset = 0;
  uint32_t keyOffset = 0;
  uint32_t localsOffset = 0;
  uint32_t faultOffset = 0;
  // dynamicKeyLevels areas of dynamicKeySize: a key holding a dynamic
  // variable's value (a[b[i]]) is built one area deeper.
  uint32_t dynamicKeyOffset = 0;
  uint32_t dynamicKeyLevels = kMinDynamicKeyLevels;
  uint32_t dynamicKeySize = 8;
  uint32_t dynamicValueOffset = 0;  // a value being stored (dynamic, or a struct for a global)
  uint32_t stringTempOffset = 0;    // two zero-padded strings being compared
  uint32_t stringTempSize = 0;      // bytes of each
  // strjoin() works in one area per nesting level: the joined string
  // (2 x stringTempSize) and its second operand (stringTempSize). So do
  // cwd and root, which build their paths as joins.
  uint32_t joinOffset = 0;
  uint32_t joinLevels = 0;
  // The state of a bpf_loop callback, then the subroutines' work areas
  // (emit_subr.cpp and the files it dispatches to): subrLevels levels of
  // two buffers of subrAreaSize for string operands, strtok()'s saved
  // string, the scratch value's own address, and the alloca() area (bytes
  // used, then the bytes). Present only in programs that need them.
  uint32_t loopStateOffset = 0;  // kLoopStateWords u64
  uint32_t subrOffset = 0;
  uint32_t subrAreaSize = 0;
  // As deep as the program nests the subroutines that work in these areas
  // (strstr(strstr(...)) needs two): illumos has no limit, each result
  // being a new scratch allocation; here all must fit the scratch value.
  uint32_t subrLevels = 0;
  uint32_t strtokOffset = 0;  // a flag word, then stringTempSize bytes
  uint32_t selfAddressOffset = 0;
  uint32_t allocaUsedOffset = 0;
  uint32_t allocaOffset = 0;  // allocaSize usable bytes (and as many again, see layout.cpp)
  uint32_t allocaSize = 0;    // scratchsize, or 0 when no clause calls these subroutines
  uint32_t scratchSize = 0;
  // A store through a pointer may land in a D variable whose storage some
  // clause takes the address of (&g.m, &a[i], &self->s.m), each within its
  // own bytes (emit_writable.cpp): the global and clause-local ones' bytes
  // (in the globals or the scratch value), the dynamic ones' ids, and the
  // words (kStoreStateWords) the search for an element shares with its map
  // callbacks.
  struct StaticRange {
    bool global = false;
    uint32_t offset = 0;
    uint32_t size = 0;
  };
  std::vector<StaticRange> addressedStatics;
  std::vector<uint32_t> addressedDynamics;
  uint32_t storeStateOffset = 0;
  // chill(): this CPU's chill interval start and the time chilled in it
  // (two u64), kept across firings; 0 when no clause chills.
  uint32_t chillOffset = 0;
  // stack(): the kernel stack as unwound, machinery frames included, before
  // the frames from the probe site on are copied to their field.
  uint32_t kernelStackOffset = 0;
  uint32_t kernelStackSize = 0;
  // ustack() and jstack() unwound by call frame information: the frames,
  // written one per bpf_loop iteration, before they are copied to their
  // field.
  uint32_t userStackOffset = 0;
  uint32_t userStackSize = 0;
  bool unwindsUserStacks = false;  // ustack(), jstack(), ucaller or ustackdepth
  bool threadCpuTime = false;      // vtimestamp: driver::ThreadCpuClock accounts at switches
  bool destructive = false;        // some clause calls raise, stop, chill, system or freopen
  // Speculations' state words in the globals (ir::SpeculationState): nspec
  // of them, or none when no clause uses speculations.
  uint32_t speculationOffset = 0;
  uint32_t speculations = 0;
  uint64_t speculationBytes = 0;  // specsize: one speculation's records per CPU
  // The globals word counting aggregation intervals (RuntimeConfig::
  // aggregationBytesPerCpu), which the consumer bumps every aggrate.
  uint32_t aggregationEpochOffset = 0;
  // What the options decide (set by the driver before any program is
  // generated).
  ir::RuntimeConfig runtime;
  std::vector<ClauseLayout> clauses;
  std::vector<ir::Aggregation> aggregations;
  std::vector<DynamicLayout> dynamics;  // by Variable::dynamicId
  // The arrays of maps programs reach shared aggregations' and dynamic
  // variables' maps through (map_sharing.h), and each aggregation's place
  // (an aggregation's keySize may be padded: MapSharing::aggregationShapes).
  std::vector<MapArray> mapArrays;
  std::vector<MapPlace> aggregationPlaces;  // by aggregation id
  std::vector<std::string> formats;
  std::vector<ir::TypeInfo> types;  // what print() shows, by Action::typeIndex
};

// Gives every global, clause-local variable, record field and aggregation
// key its place. Variables' offsets are written into the symbol table.
// The nspec and specsize options.
struct SpeculationLimits {
  uint32_t count = 1;
  uint64_t bytesPerCpu = 32 * 1024;
};

// `allocaSize` is the scratchsize option: the bytes alloca() and copyin()
// may take in one clause. `programs` lists the clauses (indexes into
// `clauses`) that run together in one program, for sharing maps; none
// means all of them in one. `otherTask` lists the clauses that run on
// behalf of a thread other than the current one (Probe::contextTaskWord):
// their thread-locals stay in hash maps, keyed by that thread.
using ProgramClauses = std::vector<std::vector<size_t>>;
Layout computeLayout(std::vector<ast::ProbeClause*>& clauses, sema::SymbolTable& symbols,
                     bool quiet, uint32_t stringBufferSize, SpeculationLimits speculations = {},
                     uint32_t allocaSize = kAllocaSize, const ProgramClauses& programs = {},
                     const std::vector<size_t>& otherTask = {});

// The record field kind for a value of type t.
ir::DataKind dataKindOf(const sema::Type* t);

}  // namespace dtrace::codegen
