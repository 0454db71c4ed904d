// -x oformat=json: the JSON values of records, aggregations, faults and
// drops, with the field names of docs/OUTPUT.md (FreeBSD's).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "consume/aggregation_table.h"
#include "ir/program.h"
#include "print/json.h"
#include "print/stack.h"

namespace dtrace::output {

// Nanoseconds since the Unix epoch: when an object is written.
uint64_t wallClockNanoseconds();

// The members every object about a probe has: type, timestamp, cpu and the
// probe's id and names. The caller closes the object.
void beginProbeObject(print::JsonWriter& w, std::string_view type, uint32_t cpu,
                      const ir::Ecb* ecb);

// Bytes as a JSON string of lowercase hex digits.
void writeBytes(print::JsonWriter& w, const uint8_t* bytes, size_t n);

// A record field as a JSON value: a number, a string, a stack or symbol
// object (writeCodeAddress), or its bytes in hex.
void writeFieldValue(print::JsonWriter& w, const ir::Field& field, const uint8_t* data,
                     const print::SymbolContext& symbols);

// A stack() or symbol function's field as docs/OUTPUT.md describes it:
// {"stack-frames": [frame...]} ("ustack-frames"), {"sym": ..., "object":
// ..., "name": ...} ("usym"), {"mod": ...} ("umod"), {"uaddr": ...}.
void writeCodeAddress(print::JsonWriter& w, const ir::Field& field, const uint8_t* data,
                      const print::SymbolContext& symbols);

// The members "aggregation-name" and "aggregation-data" of column
// `column` of `table`: each row's keys and value (divided by `normal`).
void writeAggregationMembers(print::JsonWriter& w, const consume::AggregationTable& table,
                             size_t column, uint64_t normal, const print::SymbolContext& symbols);

// A whole line: an aggregation snapshot.
void appendAggregationLine(std::string& out, const consume::AggregationTable& table, size_t column,
                           uint64_t normal, const print::SymbolContext& symbols);

// A whole line: a fault on a CPU in the clauses of `ecb` (null: unknown),
// with the message text mode prints.
void appendFaultLine(std::string& out, const ir::Ecb* ecb, uint32_t cpu,
                     const ir::FaultRecord& fault, const std::string& message);

// A whole line: lost data of a `kind` ("principal", "aggregation",
// "dynamic"), on a CPU (-1 for none), with the message text mode prints.
void appendDropLine(std::string& out, std::string_view kind, int cpu, uint64_t count,
                    uint64_t total, const std::string& message);

}  // namespace dtrace::output
