#include "output/metrics_sink.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <chrono>
#include <utility>

namespace dtrace::output {

MetricsSink::MetricsSink(std::unique_ptr<consume::Sink> inner, uint64_t seriesLimit,
                         MetricLabelNames labelNames, FILE* err)
    : ForwardingSink(std::move(inner)),
      err_(err),
      wanted_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)),
      builder_(seriesLimit, std::move(labelNames), symbols_),
      aggregations_(std::make_shared<const std::vector<MetricFamily>>()) {}

// The server goes first: its thread reads what the members below hold.
MetricsSink::~MetricsSink() { server_.reset(); }

Result<std::unique_ptr<MetricsSink>> MetricsSink::create(std::unique_ptr<consume::Sink> inner,
                                                         const std::string& address,
                                                         uint64_t seriesLimit,
                                                         const std::string& labelNames, FILE* err) {
  auto names = parseMetricLabelNames(labelNames);
  if (!names) return names.error();
  std::unique_ptr<MetricsSink> sink(
      new MetricsSink(std::move(inner), seriesLimit, std::move(*names), err));
  if (!sink->wanted_.valid()) return makeError("cannot serve metrics: eventfd failed");
  MetricsSink* self = sink.get();
  auto server =
      MetricsServer::start(address, [self](bool openMetrics) { return self->render(openMetrics); });
  if (!server) return server.error();
  sink->server_ = std::move(*server);
  return sink;
}

void MetricsSink::fault(uint32_t cpu, const ir::FaultRecord& fault, const ir::Ecb* ecb,
                        const std::string& message) {
  {
    std::lock_guard lock(mutex_);
    errors_++;
  }
  ForwardingSink::fault(cpu, fault, ecb, message);
}

void MetricsSink::buffersSwitched() {
  {
    std::lock_guard lock(mutex_);
    switches_++;
  }
  ForwardingSink::buffersSwitched();
}

void MetricsSink::drop(std::string_view kind, int cpu, uint64_t count, uint64_t total,
                       const std::string& message) {
  {
    std::lock_guard lock(mutex_);
    drops_[std::string(kind)] += count;
  }
  ForwardingSink::drop(kind, cpu, count, total, message);
}

Result<void> MetricsSink::aggregationsSnapped(consume::AggregationTables& tables) {
  if (auto r = ForwardingSink::aggregationsSnapped(tables); !r) return r;
  return publish(tables);
}

Result<void> MetricsSink::tracingEnded(consume::AggregationTables& tables) {
  if (auto r = publish(tables); !r) return r;
  {
    std::lock_guard lock(mutex_);
    ended_ = true;
  }
  published_.notify_all();
  return ForwardingSink::tracingEnded(tables);
}

// The aggregations as they are now become what scrapes return.
Result<void> MetricsSink::publish(consume::AggregationTables& tables) {
  uint64_t wishes = 0;
  (void)!read(wanted_.get(), &wishes, sizeof wishes);  // this answers every wish so far
  builder_.begin();
  for (const ir::Aggregation& agg : tables.program().aggregations) {
    if (std::optional<std::string> why = whyNotAMetric(agg)) {
      if (warned_.insert(agg.id).second) {
        std::fprintf(err_, "dtrace: metrics: @%s is not exported: %s\n", agg.name.c_str(),
                     why->c_str());
      }
      continue;
    }
    auto r = tables.visit(agg, [this](const consume::AggregationPrint& request) {
      builder_.add(request);
      return Result<void>{};
    });
    if (!r) return r;
  }
  auto families = std::make_shared<const std::vector<MetricFamily>>(std::move(builder_.families()));
  {
    std::lock_guard lock(mutex_);
    aggregations_ = std::move(families);
    droppedSeries_ = builder_.droppedSeries();
    generation_++;
  }
  published_.notify_all();
  return {};
}

// Asks the consumer's loop for the aggregations as they are now and waits
// for them, a second at most.
void MetricsSink::awaitFreshAggregations() {
  std::unique_lock lock(mutex_);
  if (ended_) return;
  const uint64_t wanted = generation_ + 1;
  const uint64_t one = 1;
  (void)!write(wanted_.get(), &one, sizeof one);
  published_.wait_for(lock, std::chrono::seconds(1),
                      [&] { return ended_ || generation_ >= wanted; });
}

std::string MetricsSink::render(bool openMetrics) {
  awaitFreshAggregations();
  std::shared_ptr<const std::vector<MetricFamily>> aggregations;
  std::vector<MetricFamily> health(4);
  {
    std::lock_guard lock(mutex_);
    aggregations = aggregations_;
    health[0] = {kHealthFamilies[0], MetricType::Counter, "data dtrace lost, by kind", {}};
    for (const auto& [kind, count] : drops_) {
      health[0].samples.push_back(
          {"_total", "kind=\"" + escapeLabelValue(kind) + '"', std::to_string(count)});
    }
    health[1] = {kHealthFamilies[1],
                 MetricType::Counter,
                 "faults in probe context (ERROR probe firings)",
                 {{"_total", "", std::to_string(errors_)}}};
    health[2] = {kHealthFamilies[2],
                 MetricType::Counter,
                 "times dtrace read every CPU's principal buffer (DTrace's buffer switch)",
                 {{"_total", "", std::to_string(switches_)}}};
    health[3] = {kHealthFamilies[3],
                 MetricType::Gauge,
                 "series the latest snapshot left out, past -x metricslimit",
                 {{"", "", std::to_string(droppedSeries_)}}};
  }
  std::string out;
  appendFamilies(out, *aggregations, openMetrics);
  appendFamilies(out, health, openMetrics);
  endExposition(out, openMetrics);
  return out;
}

}  // namespace dtrace::output
