#include "output/text_sink.h"

#include "output/table_text.h"
#include "print/printf.h"
#include "print/trace.h"

namespace dtrace::output {

TextSink::TextSink(FILE* out, bool quiet, bool rawBytes)
    : out_(out), quiet_(quiet), rawBytes_(rawBytes) {}

bool TextSink::setFlowIndent(bool on) {
  if (on && !flow_) flow_.emplace();
  if (!on) flow_.reset();
  return on;
}

std::string TextSink::heading() const {
  std::string text;
  if (flow_) {
    consume::FlowIndent::appendHeading(text);
  } else if (!quiet_) {
    text = print::kProbeHeading;
  }
  return text;
}

void TextSink::beginRecord(const consume::RecordStart& start) {
  records_.push_back(Record{{}, start.silent});
  std::string& out = text();
  const ir::Ecb& ecb = *start.ecb;
  if (flow_) {
    // dtrace(1M) indents the column even when quiet.
    if (start.silent) {
      flow_->noteRecord(start.epid, ecb.probeId);
    } else {
      if (!headingPrinted_) out += heading();
      flow_->appendPrefix(out, start.cpu, start.epid, ecb, start.next);
    }
  } else if (!quiet_ && !start.silent) {
    if (!headingPrinted_) out += heading();
    print::appendProbePrefix(out, start.cpu, ecb.probeId, ecb.function, ecb.name);
  }
  if (!start.silent) headingPrinted_ = true;
}

void TextSink::endRecord() {
  if (!quiet_ && !records_.back().silent) text() += '\n';
  std::fwrite(text().data(), 1, text().size(), recordOut());
  records_.pop_back();
}

void TextSink::traceValue(const ir::Field& field, const uint8_t* data) {
  print::appendTrace(text(), field, data, quiet_, rawBytes_);
}

void TextSink::printfText(const std::string& text, const std::vector<ir::Field>&, const uint8_t*) {
  this->text() += text;
}

void TextSink::codeAddress(const ir::Field& field, const uint8_t* data) {
  print::appendCodeAddress(text(), field, data, symbols_);
}

void TextSink::memory(const uint8_t* bytes, size_t n) {
  print::appendBytes(text(), bytes, n, -33, quiet_, true);
}

void TextSink::printedValue(const print::PrintedValue& value) {
  print::appendPrintedValue(text(), value);
}

// The record's text so far, before an action that writes (or runs
// something that writes) itself.
void TextSink::writePending() {
  if (records_.empty()) return;
  std::fwrite(text().data(), 1, text().size(), recordOut());
  text().clear();
  std::fflush(recordOut());
}

Result<void> TextSink::printa(const consume::AggregationPrint& request) {
  // The default layout starts with an empty line.
  if (!request.format) {
    if (auto r = out_.write("\n"); !r) return r;
  }
  return printTable(request, symbols_, [this](const std::string& t) { return out_.write(t); });
}

// The heading comes first, as dtrace(1M) prints it for every record.
void TextSink::fault(uint32_t, const ir::FaultRecord&, const ir::Ecb*, const std::string&) {
  if (!headingPrinted_) {
    std::fputs(heading().c_str(), recordOut());
    std::fflush(recordOut());
  }
  headingPrinted_ = true;
}

void TextSink::drop(std::string_view, int, uint64_t, uint64_t, const std::string&) {}

// dtrace(1M)'s empty line, even when quiet.
Result<void> TextSink::tracingStopped() { return out_.write("\n"); }

Result<void> TextSink::finalAggregation(const consume::AggregationPrint& request) {
  return printTable(request, symbols_, [this](const std::string& t) { return out_.write(t); });
}

}  // namespace dtrace::output
