// Where the consumer's output goes. The consumer decodes records, faults,
// drops and aggregation snapshots and says what they hold; a sink writes
// them in one format (src/output/: dtrace(1M)'s text, JSON lines, folded
// stacks, a flame graph). A new format is one more sink. So is an exporter
// of aggregations (Prometheus metrics served on /metrics, say): it keeps
// what aggregationsSnapped() shows it and ignores the records.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "consume/aggregation_table.h"
#include "consume/flow_indent.h"
#include "consume/output_file.h"
#include "ir/printf_format.h"
#include "ir/program.h"
#include "ir/runtime.h"
#include "print/stack.h"
#include "print/value.h"
#include "util/option_table.h"
#include "util/result.h"

namespace dtrace::consume {

// A probe's record as it begins: the CPU and ECB it came from.
struct RecordStart {
  uint32_t cpu = 0;
  uint32_t epid = 0;
  const ir::Ecb* ecb = nullptr;
  // A clause that only commits or discards prints nothing of its own.
  bool silent = false;
  // Under -F, the record after a return's in its CPU's buffer (see
  // FlowIndent::appendPrefix); nullopt when nothing follows.
  std::optional<FlowIndent::Next> next;
};

// An aggregation table to print: printa()'s, or one printed at the end.
struct AggregationPrint {
  const AggregationTable& table;         // sorted as the aggsort options say
  const ir::PrintfFormat* format;        // printa()'s format; null: the default layout
  const std::vector<uint64_t>& normals;  // by aggregation id: normalize()'s divisor
  // aggpercpu, agghist, aggpack, aggzoom and encoding, as they are now
  // (setopt() changes them); null when there are none.
  const OptionTable* options;
  uint64_t normal(uint32_t id) const { return id < normals.size() ? normals[id] : 1; }
};

// The aggregations as they are now, for a sink that reads them itself.
class AggregationTables {
 public:
  using Visit = std::function<Result<void>(const AggregationPrint&)>;
  virtual ~AggregationTables() = default;
  virtual const ir::Program& program() const = 0;
  // A snapshot of `agg` merged across CPUs, unsorted, shown to `visit`.
  virtual Result<void> visit(const ir::Aggregation& agg, const Visit& visit) = 0;
};

class Sink {
 public:
  virtual ~Sink() = default;

  // The output freopen(), ftruncate() and system() act on, and whose
  // write errors end tracing.
  virtual OutputFile& output() = 0;
  // How program counters are named (stack(), ustack(), sym(), %A...).
  virtual void setSymbols(const print::SymbolContext& symbols) { symbols_ = symbols; }
  // -q and -F as they are now (setopt() changes both). A sink that prints
  // no FUNCTION column returns false, and returns' records are not held
  // back for it.
  virtual void setQuiet(bool quiet) { (void)quiet; }
  virtual bool setFlowIndent(bool on) {
    (void)on;
    return false;
  }

  // A probe's record: begin, then the output of each action that ran, then
  // end. A committed speculation's records come between the committing
  // record's begin and end, each whole.
  virtual void beginRecord(const RecordStart& start) = 0;
  virtual void endRecord() = 0;
  // trace(): the field's value.
  virtual void traceValue(const ir::Field& field, const uint8_t* data) = 0;
  // printf(): the formatted text, and the arguments it was made from.
  virtual void printfText(const std::string& text, const std::vector<ir::Field>& args,
                          const uint8_t* data) = 0;
  // stack(), ustack(), sym(), mod() and the like.
  virtual void codeAddress(const ir::Field& field, const uint8_t* data) = 0;
  // tracemem() and printm(): `n` bytes, always a hex dump.
  virtual void memory(const uint8_t* bytes, size_t n) = 0;
  // print(): a value of a type.
  virtual void printedValue(const print::PrintedValue& value) = 0;
  // Before an action that writes to the output itself or moves it
  // (system(), freopen(), ftruncate(), printa(), setopt()...): the
  // record's output so far.
  virtual void writePending() = 0;
  // system(): whether the command's output is captured and handed to
  // commandOutput() rather than written by the command to the output.
  virtual bool capturesCommandOutput() const { return false; }
  virtual void commandOutput(const std::string& text) { (void)text; }
  // printa(): the table, printed where the record's action is.
  virtual Result<void> printa(const AggregationPrint& request) = 0;

  // A fault (an ERROR record) on `cpu` in the clauses of `ecb` (null for an
  // EPID the program does not have), with the message dtrace(1M) writes to
  // stderr (the consumer writes it after this).
  virtual void fault(uint32_t cpu, const ir::FaultRecord& fault, const ir::Ecb* ecb,
                     const std::string& message) = 0;
  // Lost data (see Consumer::reportDrops), after its message went to stderr.
  virtual void drop(std::string_view kind, int cpu, uint64_t count, uint64_t total,
                    const std::string& message) = 0;

  // The consumer has read every CPU's principal buffer once more: DTrace's
  // buffer switch (each switchrate tick, or sooner when a buffer fills).
  virtual void buffersSwitched() {}

  // A snapshot of the aggregations was taken (each aggrate tick), or the
  // sink asked to read them now (aggregationsWantedFd()).
  virtual Result<void> aggregationsSnapped(AggregationTables& tables) {
    (void)tables;
    return {};
  }
  // A descriptor the consumer's loop watches: readable when the sink wants
  // the aggregations as they are now (a metrics scrape), which it then
  // gets through aggregationsSnapped(); -1 for none.
  virtual int aggregationsWantedFd() const { return -1; }
  // Tracing has stopped: then each aggregation no printa() printed, in
  // order, then tracingEnded() with the aggregations as they are at the end.
  virtual Result<void> tracingStopped() = 0;
  virtual Result<void> finalAggregation(const AggregationPrint& request) = 0;
  virtual Result<void> tracingEnded(AggregationTables& tables) {
    (void)tables;
    return {};
  }

 protected:
  print::SymbolContext symbols_;
};

}  // namespace dtrace::consume
