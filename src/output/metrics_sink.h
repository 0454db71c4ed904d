// -x metrics=[ADDR:]PORT: the aggregations served as Prometheus metrics
// (GET /metrics) while tracing runs, beside the output another sink
// writes. A scrape asks the consumer's loop for the aggregations as they
// are (an eventfd it watches), which turns them into families between two
// passes over the principal buffers; the scrape waits for them (at most a
// second: else it gets the latest there are) and renders them in the
// server's own thread. dtrace's own health (drops, errors, series left
// out) is served too.
#pragma once

#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "output/forwarding_sink.h"
#include "output/metrics_exposition.h"
#include "output/metrics_server.h"
#include "util/fd.h"

namespace dtrace::output {

class MetricsSink : public ForwardingSink {
 public:
  // Starts serving on `address` (see MetricsServer::start).
  static Result<std::unique_ptr<MetricsSink>> create(std::unique_ptr<consume::Sink> inner,
                                                     const std::string& address,
                                                     uint64_t seriesLimit,
                                                     const std::string& labelNames, FILE* err);
  ~MetricsSink() override;
  std::string address() const { return server_->address(); }  // as bound: "127.0.0.1:9464"

  void fault(uint32_t cpu, const ir::FaultRecord& fault, const ir::Ecb* ecb,
             const std::string& message) override;
  void drop(std::string_view kind, int cpu, uint64_t count, uint64_t total,
            const std::string& message) override;
  void buffersSwitched() override;
  Result<void> aggregationsSnapped(consume::AggregationTables& tables) override;
  int aggregationsWantedFd() const override { return wanted_.get(); }
  Result<void> tracingEnded(consume::AggregationTables& tables) override;

 private:
  MetricsSink(std::unique_ptr<consume::Sink> inner, uint64_t seriesLimit,
              MetricLabelNames labelNames, FILE* err);
  Result<void> publish(consume::AggregationTables& tables);
  void awaitFreshAggregations();
  std::string render(bool openMetrics);

  FILE* err_;
  Fd wanted_;  // an eventfd: a scrape wants the aggregations
  MetricsBuilder builder_;
  std::set<uint32_t> warned_;  // aggregations said not to be exported
  std::unique_ptr<MetricsServer> server_;
  // Shared with the server's thread.
  std::mutex mutex_;
  std::shared_ptr<const std::vector<MetricFamily>> aggregations_;
  std::condition_variable published_;
  uint64_t generation_ = 0;                // publish() calls so far
  bool ended_ = false;                     // tracing has ended: no more publish()
  std::map<std::string, uint64_t> drops_;  // by kind
  uint64_t errors_ = 0;
  uint64_t switches_ = 0;
  uint64_t droppedSeries_ = 0;
};

}  // namespace dtrace::output
