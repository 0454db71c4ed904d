#include "output/json_values.h"

#include <time.h>

#include "print/distribution.h"
#include "print/printf.h"

namespace dtrace::output {
namespace {

// The value member of an aggregation entry, named by its function.
void writeValueMember(print::JsonWriter& w, const ir::Aggregation& agg, const int64_t* data,
                      uint64_t normal) {
  const auto divisor = static_cast<int64_t>(normal ? normal : 1);
  switch (agg.info().display) {
    case ir::AggDisplay::Scalar:
      w.key(agg.info().name).integer(data[0] / divisor);
      return;
    case ir::AggDisplay::Average:
      w.key("avg").integer(data[0] ? data[1] / divisor / data[0] : 0);
      return;
    case ir::AggDisplay::StandardDeviation:
      w.key("stddev").unsignedInteger(data[0] ? ir::standardDeviation(data, normal) : 0);
      return;
    default:
      w.key("buckets").beginArray();
      for (const print::DistributionRow& row : print::distributionRows(agg, data)) {
        w.beginObject().key("value").integer(row.value).key("count").integer(row.count / divisor);
        w.endObject();
      }
      w.endArray();
      return;
  }
}

// A stack frame as FreeBSD writes it, with the address: its parts only
// where a symbol names it.
void writeFrame(print::JsonWriter& w, const print::NamedAddress& frame) {
  w.beginObject().key("symbol").string(frame.text());
  if (!frame.object.empty()) w.key("module").string(frame.object);
  if (!frame.function.empty()) {
    w.key("name").string(frame.function).key("offset").string(print::hexText(frame.offset));
  }
  w.key("address").string(print::hexText(frame.address));
  w.endObject();
}

}  // namespace

void writeCodeAddress(print::JsonWriter& w, const ir::Field& f, const uint8_t* data,
                      const print::SymbolContext& symbols) {
  const bool user = ir::isUserCodeKind(f.kind);
  w.beginObject();
  if (f.kind == ir::DataKind::KernelStack || f.kind == ir::DataKind::UserStack) {
    w.key(user ? "ustack-frames" : "stack-frames").beginArray();
    for (const print::NamedAddress& frame : print::stackFrames(f, data, symbols)) {
      writeFrame(w, frame);
    }
    w.endArray().endObject();
    return;
  }
  const print::NamedAddress named = print::symbolFieldAddress(f, data, symbols);
  const char* name = f.kind == ir::DataKind::KernelModule  ? "mod"
                     : f.kind == ir::DataKind::UserModule  ? "umod"
                     : f.kind == ir::DataKind::UserAddress ? "uaddr"
                     : user                                ? "usym"
                                                           : "sym";
  w.key(name).string(print::symbolFieldText(f, named));
  const bool module = f.kind == ir::DataKind::KernelModule || f.kind == ir::DataKind::UserModule;
  if (!module && !named.function.empty()) {
    w.key("object").string(named.object).key("name").string(named.function);
    if (f.kind == ir::DataKind::UserAddress) w.key("offset").string(print::hexText(named.offset));
  }
  if (f.kind == ir::DataKind::UserAddress) w.key("address").string(print::hexText(named.address));
  w.endObject();
}

void writeBytes(print::JsonWriter& w, const uint8_t* bytes, size_t n) {
  static const char kDigits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * n);
  for (size_t i = 0; i < n; i++) {
    hex += kDigits[bytes[i] >> 4];
    hex += kDigits[bytes[i] & 15];
  }
  w.string(hex);
}

uint64_t wallClockNanoseconds() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<uint64_t>(now.tv_sec) * 1000000000u + static_cast<uint64_t>(now.tv_nsec);
}

void beginProbeObject(print::JsonWriter& w, std::string_view type, uint32_t cpu,
                      const ir::Ecb* ecb) {
  w.beginObject().key("type").string(type).key("timestamp").unsignedInteger(wallClockNanoseconds());
  w.key("cpu").integer(cpu);
  if (ecb) {
    w.key("id").integer(ecb->probeId).key("provider").string(ecb->provider);
    w.key("module").string(ecb->module).key("function").string(ecb->function);
    w.key("name").string(ecb->name);
  }
}

void writeFieldValue(print::JsonWriter& w, const ir::Field& f, const uint8_t* data,
                     const print::SymbolContext& symbols) {
  if (ir::isCodeAddressKind(f.kind)) {
    writeCodeAddress(w, f, data, symbols);
    return;
  }
  const uint8_t* p = data + f.offset;
  const bool integer = f.size == 1 || f.size == 2 || f.size == 4 || f.size == 8;
  switch (f.kind) {
    case ir::DataKind::Signed:
      if (integer) {
        w.integer(print::readSigned(p, f.size));
        return;
      }
      break;
    case ir::DataKind::Unsigned:
      if (integer) {
        w.unsignedInteger(print::readUnsigned(p, f.size));
        return;
      }
      break;
    case ir::DataKind::String:
      w.string(print::readString(p, f.size));
      return;
    default:
      break;
  }
  writeBytes(w, p, f.size);
}

void writeAggregationMembers(print::JsonWriter& w, const consume::AggregationTable& table,
                             size_t column, uint64_t normal, const print::SymbolContext& symbols) {
  const ir::Aggregation& keyed = table.aggregation(0);
  const ir::Aggregation& agg = table.aggregation(column);
  w.key("aggregation-name").string(agg.name);
  w.key("aggregation-data").beginArray();
  for (size_t row = 0; row < table.rows(); row++) {
    w.beginObject().key("keys").beginArray();
    for (const ir::Field& f : keyed.keys) writeFieldValue(w, f, table.key(row), symbols);
    w.endArray();
    writeValueMember(w, agg, table.value(row, column), normal);
    w.endObject();
  }
  w.endArray();
}

void appendAggregationLine(std::string& out, const consume::AggregationTable& table, size_t column,
                           uint64_t normal, const print::SymbolContext& symbols) {
  print::JsonWriter w(out);
  w.beginObject().key("type").string("aggregation");
  w.key("timestamp").unsignedInteger(wallClockNanoseconds());
  writeAggregationMembers(w, table, column, normal, symbols);
  w.endObject();
  out += '\n';
}

void appendFaultLine(std::string& out, const ir::Ecb* ecb, uint32_t cpu,
                     const ir::FaultRecord& fault, const std::string& message) {
  print::JsonWriter w(out);
  beginProbeObject(w, "fault", cpu, ecb);
  w.key("epid").integer(fault.epid).key("action").integer(fault.actionIndex);
  if (fault.difOffset != UINT32_MAX) w.key("offset").integer(fault.difOffset);
  w.key("fault").string(ir::faultMessage(static_cast<ir::Fault>(fault.fault)));
  w.key("code").integer(fault.fault).key("address").unsignedInteger(fault.address);
  w.key("msg").string(message);
  w.endObject();
  out += '\n';
}

void appendDropLine(std::string& out, std::string_view kind, int cpu, uint64_t count,
                    uint64_t total, const std::string& message) {
  print::JsonWriter w(out);
  w.beginObject().key("type").string("drop");
  w.key("timestamp").unsignedInteger(wallClockNanoseconds()).key("cpu").integer(cpu);
  w.key("id").integer(-1).key("provider").string("dtrace").key("module").string("INTERNAL");
  w.key("function").string("INTERNAL").key("name").string("DROP");
  w.key("kind").string(kind).key("count").unsignedInteger(count);
  w.key("total").unsignedInteger(total).key("msg").string(message);
  w.endObject();
  out += '\n';
}

}  // namespace dtrace::output
