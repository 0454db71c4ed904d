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

#include "ir/aggregation.h"
#include "ir/record.h"
#include "ir/runtime.h"
#include "ir/type_info.h"
#include "util/diag.h"

namespace dtrace::ir {

enum class ActionKind : uint8_t {
  Trace,      // trace(expr): fields[0]
  Printf,     // printf(fmt, args...): formatIndex; fields = the arguments in order
  Exit,       // exit(status): fields[0] is the status (int)
  System,     // system(fmt, args...): as Printf; the consumer runs the text with sh -c
  Freopen,    // freopen(fmt, args...): as Printf; the consumer sends its output there
  Ftruncate,  // ftruncate(): the consumer truncates its output file; no fields
  Tracemem,   // tracemem(addr, size[, dynsize]): fields[0] the bytes, fields[1] dynsize
  Printm,     // printm(size, addr): as tracemem(addr, size)
  Raise,      // raise(sig): done in probe context; no fields
  Stop,       // stop(): done in probe context; no fields
  Chill,      // chill(ns): done in probe context; no fields
  // The actions on aggregations, carried out by the consumer in record
  // order (Action::aggregations names the aggregations).
  Printa,       // printa([fmt,] @a[, @b...]): formatIndex when hasFormat; no fields
  Clear,        // clear(@a): no fields
  Trunc,        // trunc(@a[, n]): fields[0] is n when given
  Normalize,    // normalize(@a, n): fields[0] is n
  Denormalize,  // denormalize(@a): no fields
  Setopt,       // setopt(option[, value]): fields are the strings
  // print(expr): typeIndex describes the value. A pointer to an object is
  // fields[0] (the address) then fields[1] (the object's bytes); any other
  // value is fields[0].
  Print,
  Stack,   // stack(), ustack(), jstack(): fields[0] the frames (KernelStack, UserStack)
  Symbol,  // sym(), mod(), usym(), umod(), uaddr()...: fields[0], named by its kind
  // speculate(id): the clause's record goes to speculation id; commit(id)
  // and discard(id) end it. fields[0] is the speculation tag (runtime.h).
  Speculate,
  Commit,
  Discard,
};

// speculate(), commit() and discard(): they record a speculation tag.
bool actsOnSpeculations(ActionKind kind);
// Whether an action records data DTrace's speculation rules count
// (D_SPEC_DREC, D_COMM_DREC): not these, destructive ones or discard().
bool recordsTracedData(ActionKind kind);

// The action a D function name stands for, if it is one of these.
std::optional<ActionKind> actionNamed(std::string_view name);
// raise, stop, chill, system and freopen need -w (the destructive option).
bool isDestructive(ActionKind kind);
// The actions whose first argument is a format string (printf-like).
bool takesFormat(ActionKind kind);
// The actions whose first argument is an aggregation (printa's comes
// after its optional format).
bool actsOnAggregations(ActionKind kind);
// The index of the first call argument recorded as a field: the format
// and aggregations come before it.
size_t firstRecordedArgument(ActionKind kind);

struct Action {
  ActionKind kind;
  SourceLoc loc;
  std::vector<Field> fields;
  uint32_t formatIndex = 0;  // index into Program::formats (Printf, and Printa when hasFormat)
  bool hasFormat = false;
  std::vector<uint32_t> aggregations;  // aggregation ids, for the actions on aggregations
  uint32_t typeIndex = 0;              // index into Program::types (Print)
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

struct Program {
  std::vector<Ecb> ecbs;                  // ecbs[i].epid == i + 1
  std::vector<Aggregation> aggregations;  // aggregations[i].id == i
  std::vector<std::string> formats;       // printf format strings, as written
  std::vector<TypeInfo> types;            // the types print() shows
};

}  // namespace dtrace::ir
