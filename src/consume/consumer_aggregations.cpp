// The actions on aggregations, carried out by the consumer in the order of
// the records that ask for them: printa() (one aggregation, or several
// joined on their keys, in the default layout or a format), clear(),
// trunc(), normalize(), denormalize() and setopt(); and the aggregations
// printed when tracing ends.
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "consume/consumer.h"
#include "consume/messages.h"
#include "print/printf.h"

namespace dtrace::consume {

SortOptions Consumer::sortOptions() const {
  return options_ ? SortOptions::from(*options_) : SortOptions{};
}

Result<std::unique_ptr<MergedAggregation>> Consumer::merged(const ir::Aggregation& agg) {
  auto data = aggregations_->snapshot(agg, options_ && options_->isSet("aggpercpu"));
  if (!data) return data.error();
  snapshots_.push_back(std::move(*data));
  return std::make_unique<MergedAggregation>(snapshots_.back());
}

Result<void> Consumer::aggregationAction(const ir::Ecb& ecb, const ir::Action& action,
                                         const uint8_t* payload) {
  auto number = [&](size_t i) {
    const ir::Field& f = action.fields.at(i);
    return f.kind == ir::DataKind::Unsigned
               ? static_cast<int64_t>(print::readUnsigned(payload + f.offset, f.size))
               : print::readSigned(payload + f.offset, f.size);
  };
  if (action.kind == ir::ActionKind::Setopt) {
    auto text = [&](size_t i) {
      const ir::Field& f = action.fields.at(i);
      return std::string(print::readString(payload + f.offset, f.size));
    };
    // As dt_consume.c has it: setopt("name") gives the value "1"; an
    // empty value is passed on (it unsets a run-time switch).
    setopt(ecb, text(0), action.fields.size() > 1 ? text(1) : "1");
    return {};
  }
  if (action.aggregations.empty()) return {};
  const uint32_t id = action.aggregations[0];
  if (id >= program_.aggregations.size()) return makeError("action names an unknown aggregation");
  const ir::Aggregation& agg = program_.aggregations[id];
  normals_.resize(program_.aggregations.size(), 1);
  switch (action.kind) {
    case ir::ActionKind::Printa:
      return printa(action);
    case ir::ActionKind::Clear:
      if (aggregations_) aggregations_->clear(agg);
      return {};
    case ir::ActionKind::Trunc:
      return trunc(agg, action.fields.empty() ? 0 : number(0));
    case ir::ActionKind::Normalize: {
      const int64_t n = number(0);
      // A zero divisor leaves the values as they are, as DTrace does.
      normals_[id] = n > 0 ? static_cast<uint64_t>(n) : 1;
      return {};
    }
    case ir::ActionKind::Denormalize:
      normals_[id] = 1;
      return {};
    default:
      return {};
  }
}

// The aggregations the snapshots hold: those printa() names, but not
// those clear() or trunc() change. The kernel's maps keep counting from
// the start (DTrace's per-CPU buffers hold what came since the last
// snapshot), so clearing the maps between two snapshots would lose what
// came since the last one; those are read when printed.
Result<void> Consumer::snapAggregations() {
  if (!aggregations_) return {};
  if (held_.empty()) {
    held_.resize(program_.aggregations.size());
    snapped_.assign(program_.aggregations.size(), false);
    std::vector<bool> changed(program_.aggregations.size(), false);
    for (const ir::Ecb& ecb : program_.ecbs) {
      for (const ir::Action& action : ecb.actions) {
        for (uint32_t id : action.aggregations) {
          if (id >= snapped_.size()) continue;
          if (action.kind == ir::ActionKind::Printa) snapped_[id] = true;
          if (action.kind == ir::ActionKind::Clear || action.kind == ir::ActionKind::Trunc) {
            changed[id] = true;
          }
        }
      }
    }
    for (size_t id = 0; id < snapped_.size(); id++) snapped_[id] = snapped_[id] && !changed[id];
  }
  const bool perCpu = options_ && options_->isSet("aggpercpu");
  for (const ir::Aggregation& agg : program_.aggregations) {
    if (!snapped_[agg.id]) continue;
    auto data = aggregations_->snapshot(agg, perCpu);
    if (!data) return data.error();
    held_[agg.id] = std::move(*data);
  }
  return sink_->aggregationsSnapped(*this);
}

Result<void> Consumer::printa(const ir::Action& action) {
  if (!aggregations_) return {};
  snapshots_.clear();
  std::vector<std::unique_ptr<MergedAggregation>> columns;
  std::vector<const MergedAggregation*> views;
  for (uint32_t id : action.aggregations) {
    // The last snapshot (dt_print_aggs walks dtrace_aggregate_snap's).
    if (id < held_.size() && held_[id]) {
      columns.push_back(std::make_unique<MergedAggregation>(*held_[id]));
      views.push_back(columns.back().get());
      continue;
    }
    auto m = merged(program_.aggregations.at(id));
    if (!m) return m.error();
    views.push_back(m->get());
    columns.push_back(std::move(*m));
  }
  // An aggregation is printed (and left out at the end) only if this
  // printa() printed an entry of its own: illumos flags the description of
  // each entry it prints (dt_print_aggs, dt_fprinta), so an empty printa()
  // flags nothing.
  printed_.resize(program_.aggregations.size(), false);
  AggregationTable table(views);
  for (size_t column = 0; column < views.size(); column++) {
    if (table.rows() > 0 && views[column]->size() > 0) printed_[action.aggregations[column]] = true;
  }
  table.sort(sortOptions());
  const ir::PrintfFormat* format = nullptr;
  if (action.hasFormat) {
    if (action.formatIndex >= formats_.size() || !formats_[action.formatIndex]) {
      return makeError("printa( ) record has no valid format");
    }
    format = &*formats_[action.formatIndex];
  }
  return sink_->printa(printOf(table, format));
}

// The aggregations as they are now, each read afresh.
Result<void> Consumer::visit(const ir::Aggregation& agg, const Visit& visit) {
  snapshots_.clear();
  normals_.resize(program_.aggregations.size(), 1);
  auto m = merged(agg);
  if (!m) return m.error();
  AggregationTable table({m->get()});
  return visit(printOf(table, nullptr));
}

// trunc(@a, n): keeps the n largest values (n < 0: the -n smallest), or
// none without a count, as DTrace's walk by value removes the rest.
Result<void> Consumer::trunc(const ir::Aggregation& agg, int64_t keep) {
  if (!aggregations_) return {};
  snapshots_.clear();
  auto m = merged(agg);
  if (!m) return m.error();
  AggregationTable table({m->get()});
  SortOptions byValue;
  byValue.reverse = keep > 0;  // largest first
  table.sort(byValue);
  const size_t kept = static_cast<size_t>(keep < 0 ? -keep : keep);
  std::vector<const uint8_t*> removed;
  for (size_t row = kept; row < table.rows(); row++) removed.push_back(table.key(row));
  aggregations_->remove(agg, removed);
  return {};
}

// setopt(): as -x name=value would, from here on; a refusal is reported
// as DTrace reports a library error, and tracing goes on.
void Consumer::setopt(const ir::Ecb& ecb, const std::string& name, const std::string& value) {
  if (!options_) return;
  // dtrace_setopt() while tracing: a run-time option that is not dynamic
  // fails (EDT_ACTIVE), and tracing goes on.
  auto r = options_->setWhileTracing(name, value);
  if (!r) {
    std::fprintf(err_,
                 "dtrace: error on enabled probe ID %u (ID %u: %s:%s:%s:%s): couldn't set option "
                 "\"%s\" to \"%s\": %s\n",
                 ecb.epid, ecb.probeId, ecb.provider.c_str(), ecb.module.c_str(),
                 ecb.function.c_str(), ecb.name.c_str(), name.c_str(), value.c_str(),
                 r.error().message.c_str());
    return;
  }
  if (name == "quiet") sink_->setQuiet(options_->isSet("quiet"));
  if (name == "flowindent") setFlowIndent(options_->isSet("flowindent"));
}

Result<void> Consumer::printFinal() {
  (void)processPendingReturn(std::nullopt);
  if (auto r = sink_->tracingStopped(); !r) return r;
  if (!aggregations_) return {};
  printed_.resize(program_.aggregations.size(), false);
  normals_.resize(program_.aggregations.size(), 1);
  std::vector<const ir::Aggregation*> unprinted;
  for (const ir::Aggregation& agg : program_.aggregations) {
    if (!printed_[agg.id]) unprinted.push_back(&agg);
  }
  // Sorting by aggregation first, aggsortrev reverses their order too.
  const SortOptions order = sortOptions();
  if (order.reverse) std::reverse(unprinted.begin(), unprinted.end());
  for (const ir::Aggregation* agg : unprinted) {
    snapshots_.clear();
    auto m = merged(*agg);
    if (!m) return m.error();
    AggregationTable table({m->get()});
    table.sort(order);
    if (auto r = sink_->finalAggregation(printOf(table, nullptr)); !r) return r;
  }
  return sink_->tracingEnded(*this);
}

void Consumer::reportDrops(std::string_view kind, int cpu, uint64_t count, uint64_t total) {
  std::string message;
  const char* tag;  // DTrace's name for the kind of drop (dtrace_dropkind_t)
  if (kind == "principal") {
    message = formatDrops(count, cpu);
    tag = "DTRACEDROP_PRINCIPAL";
  } else if (kind == "aggregation") {
    message = formatAggregationDrops(count, cpu);
    tag = "DTRACEDROP_AGGREGATION";
  } else if (kind == "speculation") {
    message = formatSpeculativeDrops(count);
    tag = "DTRACEDROP_SPEC";
  } else if (kind == "speculation-unavailable") {
    message = formatFailedSpeculations(count);
    tag = "DTRACEDROP_SPECUNAVAIL";
  } else {
    message = formatDynvarDrops(count);
    tag = "DTRACEDROP_DYNAMIC";
  }
  // -x droptags: each message names its kind, as -x errtags names errors.
  constexpr std::string_view kPrefix = "dtrace: ";
  if (options_ && options_->flag("droptags") && message.starts_with(kPrefix)) {
    message.insert(kPrefix.size(), "[" + std::string(tag) + "] ");
  }
  std::fprintf(err_, "%s\n", message.c_str());
  sink_->drop(kind, cpu, count, total, message);
}

}  // namespace dtrace::consume
