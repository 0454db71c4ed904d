#include "consume/consumer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "consume/messages.h"
#include "print/aggregation.h"
#include "print/printf.h"
#include "print/trace.h"

namespace dtrace::consume {
namespace {

// Large snapshots are written in pieces of about this size.
constexpr size_t kWriteChunk = 64 * 1024;

bool fieldFits(const ir::Field& f, size_t size) {
  return static_cast<size_t>(f.offset) + f.size <= size;
}

}  // namespace

Consumer::Consumer(const ir::Program& program, FILE* out, bool quiet, FILE* err)
    : program_(program), out_(out), err_(err), quiet_(quiet) {
  formats_.reserve(program.formats.size());
  for (const std::string& text : program.formats) {
    auto parsed = sema::PrintfFormat::parse(text);
    if (auto* format = std::get_if<sema::PrintfFormat>(&parsed)) {
      formats_.emplace_back(std::move(*format));
    } else {
      formats_.emplace_back(std::nullopt);  // reported when a record uses it
    }
  }
}

int Consumer::malformed(std::string message) {
  lastError_ = std::move(message);
  return -EINVAL;
}

int Consumer::handleRecord(const void* data, size_t size) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  ir::RecordHeader header;
  if (size < sizeof header) return malformed("record shorter than its header");
  std::memcpy(&header, bytes, sizeof header);
  const uint8_t* payload = bytes + sizeof header;
  const size_t available = size - sizeof header;

  if (header.epid == 0) {
    ir::FaultRecord fault;
    if (available < sizeof fault) return malformed("fault record is truncated");
    std::memcpy(&fault, payload, sizeof fault);
    ++faults_;
    // The heading comes first, as dtrace(1M) prints it for every record.
    if (!quiet_ && !headingPrinted_) {
      std::fputs(std::string(print::kProbeHeading).c_str(), out_);
      std::fflush(out_);
    }
    headingPrinted_ = true;
    const std::string line = formatFault(program_, fault) + "\n";
    std::fputs(line.c_str(), err_);
    return 0;
  }

  if (header.epid > program_.ecbs.size()) {
    return malformed("record has unknown EPID " + std::to_string(header.epid));
  }
  const ir::Ecb& ecb = program_.ecbs[header.epid - 1];
  if (available < ecb.dataSize) {
    return malformed("record for EPID " + std::to_string(header.epid) + " is truncated");
  }

  buffer_.clear();
  if (!quiet_) {
    if (!headingPrinted_) buffer_ += print::kProbeHeading;
    print::appendProbePrefix(buffer_, header.cpu, ecb.probeId, ecb.function, ecb.name);
  }
  headingPrinted_ = true;

  int rc = 0;
  uint64_t ran = ~uint64_t{0};  // actions under an `if` say whether they ran
  if (ecb.hasActionMask && available >= sizeof ran) std::memcpy(&ran, payload, sizeof ran);
  for (size_t i = 0; i < ecb.actions.size(); i++) {
    const ir::Action& action = ecb.actions[i];
    if (i < 64 && !((ran >> i) & 1)) continue;
    switch (action.kind) {
      case ir::ActionKind::Trace:
        if (action.fields.empty() || !fieldFits(action.fields[0], available)) {
          rc = malformed("trace( ) field lies outside its record");
          break;
        }
        print::appendTrace(buffer_, action.fields[0], payload, quiet_, rawBytes_);
        break;
      case ir::ActionKind::Printf: {
        if (action.formatIndex >= formats_.size() || !formats_[action.formatIndex]) {
          rc = malformed("printf( ) record has no valid format");
          break;
        }
        auto r = print::appendPrintf(buffer_, *formats_[action.formatIndex], action.fields, payload,
                                     available);
        if (!r) rc = malformed(r.error().message);
        break;
      }
      case ir::ActionKind::Exit:
        // exit() prints nothing; the driver stops tracing and exits with it.
        if (!action.fields.empty() && fieldFits(action.fields[0], available)) {
          exitStatus_ = static_cast<int>(
              print::readSigned(payload + action.fields[0].offset, action.fields[0].size));
        }
        exitRequested_ = true;
        break;
    }
    if (rc != 0) break;
  }
  if (!quiet_) buffer_ += '\n';
  std::fwrite(buffer_.data(), 1, buffer_.size(), out_);
  return rc;
}

Result<void> Consumer::write(const std::string& text) {
  if (std::fwrite(text.data(), 1, text.size(), out_) != text.size()) {
    return makeError(std::string("failed to print aggregations: ") + std::strerror(errno));
  }
  return {};
}

Result<void> Consumer::printAggregations(const std::vector<AggregationData>& aggregations) {
  std::vector<const AggregationData*> ordered;
  for (const AggregationData& d : aggregations) {
    if (d.aggregation != nullptr) ordered.push_back(&d);
  }
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto* l, const auto* r) {
    return l->aggregation->id < r->aggregation->id;
  });

  std::string text;
  for (const AggregationData* d : ordered) {
    const ir::Aggregation& agg = *d->aggregation;
    for (const MergedEntry& entry : sortedSnapshot(*d)) {
      print::appendAggregationLine(text, agg, entry.key, entry.result);
      if (text.size() >= kWriteChunk) {
        if (auto r = write(text); !r) return r;
        text.clear();
      }
    }
  }
  return write(text);
}

Result<void> Consumer::printFinal(const std::vector<AggregationData>& aggregations) {
  if (auto r = write("\n"); !r) return r;
  return printAggregations(aggregations);
}

void Consumer::flush() { std::fflush(out_); }

}  // namespace dtrace::consume
