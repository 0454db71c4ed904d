#include "output/json_sink.h"

#include "output/json_values.h"
#include "output/table_text.h"
#include "print/value.h"

namespace dtrace::output {

void JsonSink::beginRecord(const consume::RecordStart& start) {
  records_.push_back(std::make_unique<Record>());
  beginProbeObject(json(), "record", start.cpu, start.ecb);
  json().key("output").beginArray();
}

void JsonSink::endRecord() {
  json().endArray().endObject();
  std::string& text = records_.back()->text;
  text += '\n';
  std::fwrite(text.data(), 1, text.size(), out_.current());
  records_.pop_back();
}

void JsonSink::traceValue(const ir::Field& field, const uint8_t* data) {
  json().beginObject().key("value");
  writeFieldValue(json(), field, data, symbols_);
  json().endObject();
}

// The text, then each argument's value, as FreeBSD writes them.
void JsonSink::printfText(const std::string& text, const std::vector<ir::Field>& args,
                          const uint8_t* data) {
  json().beginObject().key("message").string(text).endObject();
  for (const ir::Field& f : args) {
    json().beginObject().key("value");
    writeFieldValue(json(), f, data, symbols_);
    json().endObject();
  }
}

void JsonSink::codeAddress(const ir::Field& field, const uint8_t* data) {
  writeCodeAddress(json(), field, data, symbols_);
}

void JsonSink::memory(const uint8_t* bytes, size_t n) {
  json().beginObject().key("tracemem");
  writeBytes(json(), bytes, n);
  json().endObject();
}

// The text print() shows, as one string.
void JsonSink::printedValue(const print::PrintedValue& value) {
  std::string text;
  print::appendPrintedValue(text, value);
  json().beginObject().key("print").string(text).endObject();
}

void JsonSink::commandOutput(const std::string& text) {
  json().beginObject().key("system").string(text).endObject();
}

// A printa() adds, for each aggregation, its entries to the record's
// output, and the text its format gives.
Result<void> JsonSink::printa(const consume::AggregationPrint& request) {
  if (records_.empty()) return {};
  const consume::AggregationTable& table = request.table;
  for (size_t column = 0; column < table.columns(); column++) {
    json().beginObject();
    writeAggregationMembers(json(), table, column, request.normal(table.aggregation(column).id),
                            symbols_);
    if (request.format && column == 0) {
      std::string text;
      auto r = printTable(request, symbols_, [&](const std::string& piece) -> Result<void> {
        text += piece;
        return {};
      });
      if (!r) return r;
      json().key("message").string(text);
    }
    json().endObject();
  }
  return {};
}

void JsonSink::fault(uint32_t cpu, const ir::FaultRecord& fault, const ir::Ecb* ecb,
                     const std::string& message) {
  std::string line;
  appendFaultLine(line, ecb, cpu, fault, message);
  std::fputs(line.c_str(), out_.current());
}

void JsonSink::drop(std::string_view kind, int cpu, uint64_t count, uint64_t total,
                    const std::string& message) {
  std::string line;
  appendDropLine(line, kind, cpu, count, total, message);
  (void)out_.write(line);
}

Result<void> JsonSink::finalAggregation(const consume::AggregationPrint& request) {
  if (request.table.rows() == 0) return {};
  std::string line;
  appendAggregationLine(line, request.table, 0, request.normal(request.table.aggregation(0).id),
                        symbols_);
  return out_.write(line);
}

}  // namespace dtrace::output
