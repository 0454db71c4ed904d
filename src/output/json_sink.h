// -x oformat=json: one JSON object per line (docs/OUTPUT.md, FreeBSD's
// field names): a record with its actions' data in "output", a fault, a
// drop, and the aggregations no printa() printed when tracing ends.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "consume/output_file.h"
#include "consume/sink.h"
#include "print/json.h"

namespace dtrace::output {

class JsonSink : public consume::Sink {
 public:
  explicit JsonSink(FILE* out) : out_(out) {}

  consume::OutputFile& output() override { return out_; }

  void beginRecord(const consume::RecordStart& start) override;
  void endRecord() override;
  void traceValue(const ir::Field& field, const uint8_t* data) override;
  void printfText(const std::string& text, const std::vector<ir::Field>& args,
                  const uint8_t* data) override;
  void codeAddress(const ir::Field& field, const uint8_t* data) override;
  void memory(const uint8_t* bytes, size_t n) override;
  void printedValue(const print::PrintedValue& value) override;
  void writePending() override {}  // a record is written whole, at its end
  // A command's output would break a JSON line: it is captured.
  bool capturesCommandOutput() const override { return true; }
  void commandOutput(const std::string& text) override;
  Result<void> printa(const consume::AggregationPrint& request) override;

  void fault(uint32_t cpu, const ir::FaultRecord& fault, const ir::Ecb* ecb,
             const std::string& message) override;
  void drop(std::string_view kind, int cpu, uint64_t count, uint64_t total,
            const std::string& message) override;

  Result<void> tracingStopped() override { return {}; }  // no empty line
  Result<void> finalAggregation(const consume::AggregationPrint& request) override;

 private:
  // The record being written (a committed speculation's records are
  // written while the committing one waits).
  struct Record {
    std::string text;
    print::JsonWriter json{text};
  };
  print::JsonWriter& json() { return records_.back()->json; }

  consume::OutputFile out_;
  std::vector<std::unique_ptr<Record>> records_;
};

}  // namespace dtrace::output
