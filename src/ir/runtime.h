// The runtime protocol: what generated programs and the consumer agree on
// beyond the records' layouts. The activity state and fixed words of the
// globals map, the per-CPU loss counters, the header of every record in
// the principal buffer, fault records, and how an aggregation's map entry
// is keyed and laid out. Codegen writes these; consume and driver read
// them; nothing here depends on how either does its work.
#pragma once

#include <cstdint>

namespace dtrace::ir {

// The activity state at offset 0 of the globals value; probes fire only in
// the states DTrace allows (BEGIN in Warmup, END in Cooldown).
enum class Activity : uint64_t {
  Inactive = 0,
  Warmup = 1,
  Active = 2,
  Draining = 3,
  Cooldown = 4,
  Stopped = 5,
  // ERROR's clauses run inline wherever a fault happens, in whatever state
  // tracing has reached.
  Any = 6,
};

// Fixed words at the start of the globals value (an mmapped array map).
constexpr uint32_t kStateOffset = 0;
constexpr uint32_t kWallClockOffset = 8;  // CLOCK_REALTIME - CLOCK_MONOTONIC, set by the consumer
// exit(): kExitRequested | (uint32_t)status, written once by the exit() that
// ends tracing, so the consumer learns of it even if its record is dropped.
constexpr uint32_t kExitOffset = 16;
constexpr uint64_t kExitRequested = uint64_t{1} << 32;
constexpr uint32_t kFirstGlobalOffset = 24;

// Counters in the per-CPU "counters" map value, read by the consumer.
struct Counters {
  uint64_t filledBytes;  // bufpolicy=fill: the bytes this CPU has recorded
  uint64_t bufferDrops;
  uint64_t aggregationDrops;
  uint64_t dynamicDrops;
  uint64_t errors;
  uint64_t speculationsUnavailable;  // speculation() found every ID in use
  // Aggregation entries made on this CPU in the current aggregation
  // interval (codegen::Layout::aggregationEpochOffset): the interval, and
  // the bytes they charged.
  uint64_t aggregationEpoch;
  uint64_t aggregationBytes;
  // The last process whose user stack this CPU unwound without unwind
  // tables (by frame pointers): dtrace compiles its tables, so that its
  // later stacks are whole (ir/unwind_table.h).
  uint64_t unwindWanted;
};

// A record of this EPID stands for a speculative record that did not fit
// in specsize; its data is the speculation's tag. The consumer counts it as
// a speculative drop only if that use is committed, as DTrace counts a
// speculative buffer's drops at commit and forgets them at discard
// (dtrace_speculation_commit, dtrace_speculation_discard).
constexpr uint32_t kSpeculativeDropEpid = UINT32_MAX;

// Every record in the principal buffer starts with this header.
struct RecordHeader {
  uint32_t epid;  // 0 marks a fault record (FaultRecord follows the header)
  uint32_t cpu;
};

// Records are timestamped when their order across CPUs matters (-x
// temporal, bufpolicy=ring): the record is followed by the u64 time it was
// written (bpf_ktime_get_ns, CLOCK_MONOTONIC). The stamp is transport only:
// no buffer size or policy counts it.
constexpr uint32_t kRecordTimestampSize = 8;

// A probe-context fault (DTrace's DTRACEFLT_*), reported as an ERROR record.
enum class Fault : uint32_t {
  None = 0,
  BadAddr = 1,    // invalid address
  BadAlign = 2,   // invalid alignment
  IllOp = 3,      // illegal operation
  DivZero = 4,    // divide-by-zero
  NoScratch = 5,  // out of scratch space
  KPriv = 6,
  UPriv = 7,
  TupOflow = 8,  // tuple stack overflow
  BadStack = 9,
  BadIndex = 10,  // index out of range (not in illumos' first list; DTRACEFLT_BADINDEX)
};
const char* faultMessage(Fault f);  // "divide-by-zero", "invalid address (0x%llx)" stem, ...

// Layout of a fault record after the header (header.epid == 0).
struct FaultRecord {
  uint32_t epid;         // the ECB that faulted
  uint32_t fault;        // Fault
  uint64_t address;      // faulting address, when there is one
  uint32_t actionIndex;  // 1-based action number, 0 for the predicate
  uint32_t difOffset;    // instruction offset in the program, for the message
};

// A global or clause-local string variable is preceded by this many bytes,
// the first of which is kNullMarker while it holds DTrace's NULL string
// (s = NULL), as DTrace marks a by-reference variable's storage.
constexpr uint32_t kNullMarkerSize = 8;
constexpr int32_t kNullMarker = 0xff;

// An aggregation lives in a BPF hash map. Its key is the tuple's fields
// packed at their offsets (Aggregation::keySize bytes; a single zero word
// when there are no keys) followed by a slot word: the number of the CPU
// that owns the entry in its low half (each CPU updates only its own
// entries, as DTrace's per-CPU aggregation buffers, and the consumer
// merges them) and, for distributions (Aggregation::bucketed()), the
// bucket the entry counts in its high half.
constexpr uint32_t kAggregationCpuSlot = 8;
constexpr uint32_t kAggregationBucketShift = 32;

// Its value is a generation word, then the function's data words
// (Aggregation::entryWords(): a distribution's entry holds its bucket's
// count and the sum of the values counted in it). clear() is the consumer bumping the
// aggregation's generation word in the globals (Aggregation::
// generationOffset): an entry whose generation is older holds data from
// before the clear, so the consumer reads it as zeros and the next firing
// on that CPU starts it afresh, with no update ever lost to a race.
constexpr uint32_t kAggregationGenerationWords = 1;

// Speculations: nspec words in the globals (from Layout::speculationOffset),
// one per speculation ID (ID 1 is the first word). The low byte is the
// state; the rest counts the times speculation() handed the ID out. A
// speculative record carries a tag, (generation << 32) | ID, in its
// Speculate action's field, as do commit() and discard() records; a tag of
// 0 means "nothing" (ID 0, or not active). commit() and discard() free the
// ID at once; the consumer holds a tag's records until the commit() or
// discard() record of that tag arrives, so that a new use of the ID never
// mixes with the last one, whatever order CPUs' records arrive in.
enum class SpeculationState : uint8_t {
  Inactive = 0,  // free for speculation()
  Active = 1,    // handed out; speculate() records into it
};
constexpr uint64_t kSpeculationStateMask = 0xff;
constexpr uint32_t kSpeculationGenerationShift = 8;

// Per CPU and speculation ID, in the "speculation usage" per-CPU array:
// the bytes of this CPU's records in the ID's current use (specsize).
struct SpeculationUsage {
  uint64_t generation;
  uint64_t bytes;
};

}  // namespace dtrace::ir
