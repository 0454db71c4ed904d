// The consumer: decodes records from the principal buffer by EPID and
// hands what they hold to its sink (which prints them in a format),
// reports faults, remembers exit(), and takes aggregation snapshots for
// printa() and the end. The driver feeds it records and flushes.
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
#include "consume/sink.h"
#include "consume/speculations.h"
#include "ir/printf_format.h"
#include "ir/program.h"
#include "ir/runtime.h"
#include "print/stack.h"
#include "util/option_table.h"
#include "util/result.h"

namespace dtrace::consume {

class Consumer : private AggregationTables {
 public:
  // `program` must outlive the consumer. Data goes to `sink` (see
  // output::makeSink); fault and drop messages go to `err`.
  Consumer(const ir::Program& program, std::unique_ptr<Sink> sink, FILE* err = stderr);
  ~Consumer() override;
  Consumer(const Consumer&) = delete;
  Consumer& operator=(const Consumer&) = delete;
  // Where printa(), clear() and trunc() find the aggregations, and the
  // options setopt() changes and the aggsort* options are read from. Both
  // must outlive the consumer.
  void setAggregationSource(AggregationSource* source) { aggregations_ = source; }
  void setOptions(OptionTable* options) { options_ = options; }

  // Lost data, reported on stderr in DTrace's words (and handed to the
  // sink: a JSON object in JSON mode): `kind` is "principal", "aggregation", "dynamic",
  // "speculation" or "speculation-unavailable", `cpu`
  // -1 for drops of no CPU; `total` counts every drop of the kind so far.
  void reportDrops(std::string_view kind, int cpu, uint64_t count, uint64_t total);

  // How program counters are named (stack(), ustack(), sym(), %A...).
  void setSymbols(const print::SymbolContext& symbols) {
    symbols_ = symbols;
    sink_->setSymbols(symbols);
  }

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
  // The sink's descriptor (Sink::aggregationsWantedFd), and its request
  // answered: the aggregations as they are now, printa()'s snapshots left
  // as they are.
  int aggregationsWantedFd() const { return sink_->aggregationsWantedFd(); }
  void buffersSwitched() { sink_->buffersSwitched(); }
  Result<void> showSinkAggregations() { return sink_->aggregationsSnapped(*this); }

  // What dtrace(1M) prints once tracing has stopped: an empty line (even
  // when quiet), then every aggregation no printa() has printed, in the
  // order of their ids (dtrace_aggregate_print); then whatever the sink
  // makes of the aggregations at the end (-x flamegraph's graph).
  Result<void> printFinal();

  void flush();
  // The errno of the first write to the output that failed (see
  // OutputFile::writeError).
  int writeError() const { return sink_->output().writeError(); }

 private:
  // AggregationTables, for the sink.
  const ir::Program& program() const override { return program_; }
  Result<void> visit(const ir::Aggregation& agg, const Visit& visit) override;
  uint64_t exitWord() const;
  // commit(): the records held for the tag, printed as if they came now.
  void replayCommitted(uint64_t tag);
  int malformed(std::string message);
  int processRecord(const void* data, size_t size, std::optional<FlowIndent::Next> next);
  int processPendingReturn(std::optional<ir::RecordHeader> following);
  // The actions of a record, each decoded and handed to the sink.
  int runActions(const ir::Ecb& ecb, const uint8_t* payload, size_t available);
  int decodeAction(const ir::Ecb& ecb, const ir::Action& action, const uint8_t* payload,
                   size_t available);
  int printfAction(const ir::Action& action, const uint8_t* payload, size_t available);
  int tracememAction(const ir::Action& action, const uint8_t* payload, size_t available);
  int commandAction(const ir::Ecb& ecb, const ir::Action& action, const uint8_t* payload,
                    size_t available);
  int printAction(const ir::Action& action, const uint8_t* payload, size_t available);
  int speculationAction(const ir::Action& action, const uint8_t* payload, size_t available);
  int fault(const ir::RecordHeader& header, const uint8_t* payload, size_t available);
  // system(): the command's output goes to dtrace's output, or is returned
  // when `capture` (a sink that captures it: JSON) asks for it.
  std::string runCommand(const std::string& command, bool capture = false);
  void reopenOutput(const ir::Ecb& ecb, const std::string& path, bool restore);
  // consumer_aggregations.cpp: the actions on aggregations.
  Result<void> aggregationAction(const ir::Ecb& ecb, const ir::Action& action,
                                 const uint8_t* payload);
  Result<void> printa(const ir::Action& action);
  Result<void> trunc(const ir::Aggregation& agg, int64_t keep);
  void setopt(const ir::Ecb& ecb, const std::string& name, const std::string& value);
  Result<std::unique_ptr<MergedAggregation>> merged(const ir::Aggregation& agg);
  SortOptions sortOptions() const;
  AggregationPrint printOf(const AggregationTable& table, const ir::PrintfFormat* format) const {
    return AggregationPrint{table, format, normals_, options_};
  }

  const ir::Program& program_;
  std::unique_ptr<Sink> sink_;
  const uint64_t* exitWord_ = nullptr;
  FILE* err_;
  print::SymbolContext symbols_;
  bool holdsReturns_ = false;           // with -F, when the sink indents
  std::vector<uint8_t> pendingReturn_;  // a return's record, until the next one
  bool exitRequested_ = false;
  int exitStatus_ = 0;
  uint64_t faults_ = 0;
  std::string lastError_;
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
