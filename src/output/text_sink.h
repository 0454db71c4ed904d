// dtrace(1M)'s output (-x oformat=text, the default): each record a line
// after its CPU, probe ID and FUNCTION:NAME columns (or -F's indented
// FUNCTION column, or nothing with -q), printa()'s tables, and the
// aggregations no printa() printed when tracing ends.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "consume/flow_indent.h"
#include "consume/output_file.h"
#include "consume/sink.h"

namespace dtrace::output {

class TextSink : public consume::Sink {
 public:
  // Data goes to `out`. `rawBytes`: -x rawbytes, trace() prints bytes as a
  // hex dump even when they look like a string.
  TextSink(FILE* out, bool quiet, bool rawBytes);

  consume::OutputFile& output() override { return out_; }
  void setQuiet(bool quiet) override { quiet_ = quiet; }
  bool setFlowIndent(bool on) override;

  void beginRecord(const consume::RecordStart& start) override;
  void endRecord() override;
  void traceValue(const ir::Field& field, const uint8_t* data) override;
  void printfText(const std::string& text, const std::vector<ir::Field>& args,
                  const uint8_t* data) override;
  void codeAddress(const ir::Field& field, const uint8_t* data) override;
  void memory(const uint8_t* bytes, size_t n) override;
  void printedValue(const print::PrintedValue& value) override;
  void writePending() override;
  Result<void> printa(const consume::AggregationPrint& request) override;

  void fault(uint32_t cpu, const ir::FaultRecord& fault, const ir::Ecb* ecb,
             const std::string& message) override;
  void drop(std::string_view kind, int cpu, uint64_t count, uint64_t total,
            const std::string& message) override;

  Result<void> tracingStopped() override;
  Result<void> finalAggregation(const consume::AggregationPrint& request) override;

 protected:
  // Where records' text goes: the output (stderr for the folded sink).
  virtual FILE* recordOut() { return out_.current(); }

 private:
  // What dtrace(1M) prints before the first record: -F's heading, or the
  // probe columns' unless quiet.
  std::string heading() const;
  std::string& text() { return records_.back().text; }

  consume::OutputFile out_;
  bool quiet_;
  bool rawBytes_;
  bool headingPrinted_ = false;
  std::optional<consume::FlowIndent> flow_;  // with -F
  // The records being printed: a committed speculation's records print
  // while the committing one's text waits.
  struct Record {
    std::string text;
    bool silent = false;
  };
  std::vector<Record> records_;
};

}  // namespace dtrace::output
