// The consumer: decodes records from the principal buffer by EPID and
// prints them as dtrace(1M) does, reports faults, remembers exit(), and
// prints aggregation snapshots. The driver feeds it records and flushes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "consume/aggregation_source.h"
#include "consume/aggregation_table.h"
#include "consume/flow_indent.h"
#include "consume/speculations.h"
#include "ir/printf_format.h"
#include "ir/program.h"
#include "ir/runtime.h"
#include "print/distribution.h"
#include "print/stack.h"
#include "util/option_table.h"
#include "util/result.h"

namespace dtrace::print {
class JsonWriter;
}

namespace dtrace::consume {

// What the consumer writes (the oformat option).
enum class OutputFormat {
  Text,    // dtrace(1M)'s output
  Json,    // one JSON object per line (docs/OUTPUT.md)
  Folded,  // aggregations as folded stacks; records' text goes to stderr
};

class Consumer {
 public:
  // `program` must outlive the consumer. Data goes to `out`; fault
  // messages go to `err`.
  Consumer(const ir::Program& program, FILE* out, bool quiet, FILE* err = stderr);
  ~Consumer();  // closes a file freopen() opened
  Consumer(const Consumer&) = delete;
  Consumer& operator=(const Consumer&) = delete;
  // The rawbytes option: trace() prints bytes as a hex dump even when they
  // look like a string.
  void setRawBytes(bool raw) { rawBytes_ = raw; }
  // Where printa(), clear() and trunc() find the aggregations, and the
  // options setopt() changes and the aggsort* options are read from. Both
  // must outlive the consumer.
  void setAggregationSource(AggregationSource* source) { aggregations_ = source; }
  void setOptions(OptionTable* options) { options_ = options; }
  void setOutputFormat(OutputFormat format) { format_ = format; }

  // Lost data, reported on stderr in DTrace's words (and as a JSON object
  // in JSON mode): `kind` is "principal", "aggregation", "dynamic",
  // "speculation" or "speculation-unavailable", `cpu`
  // -1 for drops of no CPU; `total` counts every drop of the kind so far.
  void reportDrops(std::string_view kind, int cpu, uint64_t count, uint64_t total);

  // -x flamegraph=FILE: the first aggregation with a stack in its keys,
  // as an SVG flame graph.
  Result<void> writeFlameGraph(const std::string& path, const std::string& commandLine);
  // How program counters are named (stack(), ustack(), sym(), %A...).
  void setSymbols(const print::SymbolContext& symbols) { symbols_ = symbols; }

  // One record: ir::RecordHeader then the ECB's data (a FaultRecord when
  // the EPID is 0). Returns 0, or -EINVAL for a record that does not match
  // the program (lastError() says why). Fits libbpf's ring buffer callback.
  int handleRecord(const void* data, size_t size);
  // -F (flowindent): the FUNCTION column indented by entries and returns.
  void setFlowIndent(bool on);

  // The word exit() sets in the kernel (ir::kExitOffset of the
  // globals): tracing ends even when exit()'s record was dropped.
  void watchExitWord(const uint64_t* word) { exitWord_ = word; }
  bool exitRequested() const;
  // The number of speculation IDs (nspec), 0 when the program uses none.
  void setSpeculations(uint32_t count) { speculations_.setCount(count); }
  // Speculative drops: records beyond specsize of the uses committed so far.
  uint64_t speculativeDrops() const { return speculations_.committedDrops(); }
  int exitStatus() const;
  uint64_t faultCount() const { return faults_; }
  const std::string& lastError() const { return lastError_; }

  // dtrace_aggregate_snap: the aggregations printa() prints, as they are
  // now. printa() prints the last snapshot, not the kernel's maps of the
  // moment: the driver takes one at each aggrate tick, before it reads that
  // pass's records (dtrace_work). Aggregations that clear() or trunc()
  // change are read when printed instead (see docs/DIFFERENCES.md).
  Result<void> snapAggregations();

  // What dtrace(1M) prints once tracing has stopped: an empty line (even
  // when quiet), then every aggregation no printa() has printed, in the
  // order of their ids (dtrace_aggregate_print).
  Result<void> printFinal();

  void flush();
  // The errno of the first write to the output that failed (a full disk,
  // an I/O error), 0 while every one succeeded. A closed pipe (EPIPE) is
  // not counted: a reader that has had enough ends tracing by SIGPIPE.
  int writeError() const { return writeError_; }

 private:
  uint64_t exitWord() const;
  // commit(): the records held for the tag, printed as if they came now.
  void replayCommitted(uint64_t tag);
  int malformed(std::string message);
  int processRecord(const void* data, size_t size, std::optional<FlowIndent::Next> next);
  int processPendingReturn(std::optional<ir::RecordHeader> following);
  std::string heading() const;
  Result<void> write(const std::string& text);
  // The consumer-side actions; `text` is the formatted argument.
  void writePending();  // the record's output so far, before an action acts
  // system(): the command's output goes to dtrace's output, or is returned
  // when `capture` (JSON mode) asks for it.
  std::string runCommand(const std::string& command, bool capture = false);
  // Where records' text goes: the output, or stderr in folded mode.
  FILE* recordOut() const { return format_ == OutputFormat::Folded ? err_ : out_; }
  void reopenOutput(const ir::Ecb& ecb, const std::string& path, bool restore);
  void truncateOutput();
  // consumer_aggregations.cpp: the actions on aggregations.
  Result<void> aggregationAction(const ir::Ecb& ecb, const ir::Action& action,
                                 const uint8_t* payload);
  Result<void> printa(const ir::Action& action);
  Result<void> trunc(const ir::Aggregation& agg, int64_t keep);
  void setopt(const ir::Ecb& ecb, const std::string& name, const std::string& value);
  // The rows of `table`: each in the default layout (keys, then each
  // value), or as `format` says.
  using TextSink = std::function<Result<void>(const std::string&)>;
  TextSink output() {
    return [this](const std::string& text) { return write(text); };
  }
  Result<void> printTable(const AggregationTable& table, const ir::PrintfFormat* format,
                          const TextSink& sink);
  Result<void> printJson(const AggregationTable& table, const ir::PrintfFormat* format);
  Result<void> printFolded(const AggregationTable& table);
  // aggpercpu: after a row's value, the value on each CPU.
  void appendPerCpu(std::string& out, const AggregationData& data, size_t index,
                    print::BarStyle style);
  Result<std::unique_ptr<MergedAggregation>> merged(const ir::Aggregation& agg);
  SortOptions sortOptions() const;
  uint64_t normal(uint32_t id) const { return id < normals_.size() ? normals_[id] : 1; }
  // -x aggzoom and -x encoding (settable at run time, as DTrace's dynamic
  // options are). `packed`: for aggpack, whose default encoding follows
  // the terminal.
  print::BarStyle barStyle(bool packed) const;

  const ir::Program& program_;
  FILE* out_;  // where data goes now: originalOut_, or freopen()'s file
  FILE* originalOut_;
  const uint64_t* exitWord_ = nullptr;
  FILE* err_;
  bool quiet_;
  bool rawBytes_ = false;
  print::SymbolContext symbols_;
  bool headingPrinted_ = false;
  std::optional<FlowIndent> flow_;      // with -F
  std::vector<uint8_t> pendingReturn_;  // a return's record, until the next one
  bool exitRequested_ = false;
  int exitStatus_ = 0;
  uint64_t faults_ = 0;
  int writeError_ = 0;
  std::string lastError_;
  std::string buffer_;                                    // reused for every record
  std::vector<std::optional<ir::PrintfFormat>> formats_;  // by Program::formats index
  AggregationSource* aggregations_ = nullptr;
  OptionTable* options_ = nullptr;
  // By aggregation id: normalize()'s divisor, and whether printa() printed it.
  std::vector<uint64_t> normals_;
  std::vector<bool> printed_;
  // Snapshots read for the current action: they own what the merged views
  // and the rows point at (a deque, so that reading one more moves none).
  std::deque<AggregationData> snapshots_;
  // By aggregation id: the last snapshot, for those snapAggregations()
  // takes (held_ is empty until the first).
  std::vector<bool> snapped_;
  std::vector<std::optional<AggregationData>> held_;
  OutputFormat format_ = OutputFormat::Text;
  print::JsonWriter* json_ = nullptr;  // the record being written, in JSON mode
  // By EPID - 1: the speculate() field of a speculating clause's records,
  // and whether a record prints nothing of its own (commit/discard only).
  struct EcbRole {
    std::optional<ir::Field> speculationTag;
    bool silent = false;
  };
  static EcbRole roleOf(const ir::Ecb& ecb);
  std::vector<EcbRole> ecbRoles_;
  SpeculationBuffers speculations_;
  bool replaying_ = false;  // printing a committed speculation's records
};

}  // namespace dtrace::consume
