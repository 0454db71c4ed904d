// What the compiler hands the runtime: for every enabled probe clause (ECB,
// identified by its EPID) the fixed layout of the record it writes, the
// actions that record carries, and the aggregations and formats the consumer
// needs to decode and print. The layout never varies for an EPID, so the
// buffer carries only {EPID, CPU, data}.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/diag.h"

namespace dtrace::ir {

// Every record in the principal buffer starts with this header.
struct RecordHeader {
  uint32_t epid;  // 0 marks a fault record (FaultRecord follows the header)
  uint32_t cpu;
};

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

// How the bytes of one record field are to be read.
enum class DataKind : uint8_t {
  Signed,    // two's-complement integer of `size` bytes
  Unsigned,  // unsigned integer of `size` bytes
  String,    // NUL-terminated within `size` bytes
};

struct Field {
  uint32_t offset = 0;  // from the start of the record data (after RecordHeader)
  uint32_t size = 0;
  DataKind kind = DataKind::Signed;
  bool isPointer = false;  // print as an address (%p-like) where the action cares
};

enum class ActionKind : uint8_t {
  Trace,      // trace(expr): fields[0]
  Printf,     // printf(fmt, args...): formatIndex; fields = the arguments in order
  Exit,       // exit(status): fields[0] is the status (int)
  System,     // system(fmt, args...): as Printf; the consumer runs the text with sh -c
  Freopen,    // freopen(fmt, args...): as Printf; the consumer sends its output there
  Ftruncate,  // ftruncate(): the consumer truncates its output file; no fields
  Tracemem,   // tracemem(addr, size[, dynsize]): fields[0] the bytes, fields[1] dynsize
  Raise,      // raise(sig): done in probe context; no fields
  Stop,       // stop(): done in probe context; no fields
  Chill,      // chill(ns): done in probe context; no fields
};

// The action a D function name stands for, if it is one of these.
std::optional<ActionKind> actionNamed(std::string_view name);
// raise, stop, chill, system and freopen need -w (the destructive option).
bool isDestructive(ActionKind kind);
// The actions whose first argument is a format string (printf-like).
bool takesFormat(ActionKind kind);

struct Action {
  ActionKind kind;
  SourceLoc loc;
  std::vector<Field> fields;
  uint32_t formatIndex = 0;  // index into Program::formats (Printf)
};

// One enabled probe clause: a clause applied to one probe.
struct Ecb {
  uint32_t epid = 0;
  uint32_t probeId = 0;
  uint32_t clauseIndex = 0;  // position of the clause in the script (0-based)
  uint32_t dataSize = 0;     // bytes of record data after the header (multiple of 8)
  std::vector<Action> actions;
  // When some actions sit under an `if`, the first 8 bytes of the data are a
  // bit mask of the actions that ran (bit i = actions[i]); the consumer
  // prints only those. Otherwise every action ran.
  bool hasActionMask = false;
  // Probe identity for the default output ("CPU ID FUNCTION:NAME").
  std::string provider, module, function, name;
};

enum class AggFunc : uint8_t { Count, Sum, Min, Max, Avg };

// One aggregation (@name). In the kernel it is a hash map whose key is the
// tuple's fields packed at their offsets (keySize bytes; a single zero
// uint64 when the aggregation has no keys) followed by the number of the
// CPU that owns the entry (kAggregationCpuSlot bytes), and whose value is
// the AggValue below. Each CPU updates only its own entries, as DTrace's
// per-CPU aggregation buffers; the consumer merges them.
constexpr uint32_t kAggregationCpuSlot = 8;

struct Aggregation {
  uint32_t id = 0;
  std::string name;  // without '@'; empty for the anonymous aggregation '@'
  AggFunc func = AggFunc::Count;
  std::vector<Field> keys;  // offsets within the key
  uint32_t keySize = 8;
  DataKind valueKind = DataKind::Signed;  // of the aggregated expression (sum/min/max/avg)
  uint32_t maxEntries = 0;  // (tuple, CPU) entries the map holds; more are aggregation drops
};

// One CPU's value of an aggregation entry, whatever its function: the
// consumer merges CPUs with count > 0 only, so min/max never see an unset slot.
struct AggValue {
  uint64_t count;  // firings on this CPU
  int64_t value;   // Sum/Avg: the running total; Min/Max: the extreme so far
};

struct Program {
  std::vector<Ecb> ecbs;                  // ecbs[i].epid == i + 1
  std::vector<Aggregation> aggregations;  // aggregations[i].id == i
  std::vector<std::string> formats;       // printf format strings, as written
};

}  // namespace dtrace::ir
