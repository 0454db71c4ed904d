// A sink that hands everything on to another: the base of sinks that add
// to a format's output rather than replace it (the flame graph).
#pragma once

#include <memory>
#include <utility>

#include "consume/sink.h"

namespace dtrace::output {

class ForwardingSink : public consume::Sink {
 public:
  explicit ForwardingSink(std::unique_ptr<consume::Sink> inner) : inner_(std::move(inner)) {}

  consume::OutputFile& output() override { return inner_->output(); }
  void setSymbols(const print::SymbolContext& symbols) override {
    Sink::setSymbols(symbols);
    inner_->setSymbols(symbols);
  }
  void setQuiet(bool quiet) override { inner_->setQuiet(quiet); }
  bool setFlowIndent(bool on) override { return inner_->setFlowIndent(on); }

  void beginRecord(const consume::RecordStart& start) override { inner_->beginRecord(start); }
  void endRecord() override { inner_->endRecord(); }
  void traceValue(const ir::Field& field, const uint8_t* data) override {
    inner_->traceValue(field, data);
  }
  void printfText(const std::string& text, const std::vector<ir::Field>& args,
                  const uint8_t* data) override {
    inner_->printfText(text, args, data);
  }
  void codeAddress(const ir::Field& field, const uint8_t* data) override {
    inner_->codeAddress(field, data);
  }
  void memory(const uint8_t* bytes, size_t n) override { inner_->memory(bytes, n); }
  void printedValue(const print::PrintedValue& value) override { inner_->printedValue(value); }
  void writePending() override { inner_->writePending(); }
  bool capturesCommandOutput() const override { return inner_->capturesCommandOutput(); }
  void commandOutput(const std::string& text) override { inner_->commandOutput(text); }
  Result<void> printa(const consume::AggregationPrint& request) override {
    return inner_->printa(request);
  }

  void fault(uint32_t cpu, const ir::FaultRecord& fault, const ir::Ecb* ecb,
             const std::string& message) override {
    inner_->fault(cpu, fault, ecb, message);
  }
  void drop(std::string_view kind, int cpu, uint64_t count, uint64_t total,
            const std::string& message) override {
    inner_->drop(kind, cpu, count, total, message);
  }

  void buffersSwitched() override { inner_->buffersSwitched(); }
  Result<void> aggregationsSnapped(consume::AggregationTables& tables) override {
    return inner_->aggregationsSnapped(tables);
  }
  int aggregationsWantedFd() const override { return inner_->aggregationsWantedFd(); }
  Result<void> tracingStopped() override { return inner_->tracingStopped(); }
  Result<void> finalAggregation(const consume::AggregationPrint& request) override {
    return inner_->finalAggregation(request);
  }
  Result<void> tracingEnded(consume::AggregationTables& tables) override {
    return inner_->tracingEnded(tables);
  }

 private:
  std::unique_ptr<consume::Sink> inner_;
};

}  // namespace dtrace::output
