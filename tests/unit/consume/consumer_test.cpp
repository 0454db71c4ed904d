#include "consume/consumer.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "../print/memory_file.h"
#include "../print/record_builder.h"
#include "consume/messages.h"
#include "output/text_sink.h"
#include "print/trace.h"

namespace dtrace::consume {
namespace {

using testing::Capture;
using testing::RecordBuilder;

std::string pad(size_t n) { return std::string(n, ' '); }

// dtrace(1M)'s text output, to `out`.
std::unique_ptr<Sink> textSink(FILE* out, bool quiet) {
  return std::make_unique<output::TextSink>(out, quiet, false);
}

ir::Ecb makeEcb(uint32_t epid, uint32_t probeId, std::string provider, std::string function,
                std::string name, uint32_t dataSize) {
  ir::Ecb ecb;
  ecb.epid = epid;
  ecb.probeId = probeId;
  ecb.dataSize = dataSize;
  ecb.provider = std::move(provider);
  ecb.function = std::move(function);
  ecb.name = std::move(name);
  return ecb;
}

ir::Action action(ir::ActionKind kind, std::vector<ir::Field> fields, uint32_t format = 0) {
  ir::Action a;
  a.kind = kind;
  a.fields = std::move(fields);
  a.formatIndex = format;
  return a;
}

std::vector<uint8_t> record(uint32_t epid, uint32_t cpu, const std::vector<uint8_t>& data) {
  ir::RecordHeader header{epid, cpu};
  std::vector<uint8_t> bytes(sizeof header + data.size());
  std::memcpy(bytes.data(), &header, sizeof header);
  std::copy(data.begin(), data.end(), bytes.begin() + sizeof header);
  return bytes;
}

std::vector<uint8_t> faultRecord(const ir::FaultRecord& fault) {
  std::vector<uint8_t> data(sizeof fault);
  std::memcpy(data.data(), &fault, sizeof fault);
  return record(0, 0, data);
}

int feed(Consumer& c, const std::vector<uint8_t>& bytes) {
  return c.handleRecord(bytes.data(), bytes.size());
}

const std::string kHeading = "CPU     ID                    FUNCTION:NAME\n";
const std::string kBeginPrefix = "  0      1" + pad(27) + ":BEGIN ";

// BEGIN { trace(42); }  plus  syscall::read:entry { trace("bash"); }
struct TraceProgram {
  ir::Program program;
  RecordBuilder intRecord, stringRecord;
  TraceProgram() {
    intRecord.add(int64_t{42});
    ir::Ecb begin = makeEcb(1, 1, "dtrace", "", "BEGIN", 8);
    begin.actions.push_back(action(ir::ActionKind::Trace, intRecord.fields()));
    program.ecbs.push_back(begin);

    stringRecord.addString("bash", 16);
    ir::Ecb read = makeEcb(2, 412, "syscall", "read", "entry", 16);
    read.actions.push_back(action(ir::ActionKind::Trace, stringRecord.fields()));
    program.ecbs.push_back(read);
  }
};

TEST(Consumer, DefaultOutputHasHeadingOnceAndNewlinePerRecord) {
  TraceProgram p;
  Capture out, err;
  Consumer c(p.program, textSink(out.file(), false), err.file());
  EXPECT_EQ(feed(c, record(1, 0, p.intRecord.padded())), 0);
  EXPECT_EQ(feed(c, record(2, 1, p.stringRecord.padded())), 0);
  EXPECT_EQ(feed(c, record(1, 0, p.intRecord.padded())), 0);
  const std::string traced42 = " " + pad(14) + "42\n";
  EXPECT_EQ(out.str(), kHeading + kBeginPrefix + traced42 + "  1    412" + pad(23) +
                           "read:entry   bash" + pad(29) + "\n" + kBeginPrefix + traced42);
  EXPECT_EQ(err.str(), "");
}

TEST(Consumer, QuietOutputIsTheDataAlone) {
  TraceProgram p;
  Capture out, err;
  Consumer c(p.program, textSink(out.file(), true), err.file());
  feed(c, record(1, 0, p.intRecord.padded()));
  feed(c, record(2, 0, p.stringRecord.padded()));
  EXPECT_EQ(out.str(), "42bash");
}

TEST(Consumer, PrintfRecords) {
  ir::Program program;
  program.formats = {"%s is %d years old\n"};
  RecordBuilder b;
  b.addString("Tux", 16).add(int32_t{33});
  ir::Ecb ecb = makeEcb(1, 1, "dtrace", "", "BEGIN", 24);
  ecb.actions.push_back(action(ir::ActionKind::Printf, b.fields(), 0));
  program.ecbs.push_back(ecb);

  Capture quietOut, loudOut, err;
  Consumer quiet(program, textSink(quietOut.file(), true), err.file());
  EXPECT_EQ(feed(quiet, record(1, 0, b.padded())), 0);
  EXPECT_EQ(quietOut.str(), "Tux is 33 years old\n");

  Consumer loud(program, textSink(loudOut.file(), false), err.file());
  feed(loud, record(1, 0, b.padded()));
  EXPECT_EQ(loudOut.str(), kHeading + kBeginPrefix + "Tux is 33 years old\n\n");
}

TEST(Consumer, ExitPrintsNothingButIsRemembered) {
  ir::Program program;
  RecordBuilder b;
  b.add(int32_t{3});
  ir::Ecb ecb = makeEcb(1, 1, "dtrace", "", "BEGIN", 8);
  ecb.actions.push_back(action(ir::ActionKind::Exit, b.fields()));
  program.ecbs.push_back(ecb);

  Capture out, err;
  Consumer c(program, textSink(out.file(), false), err.file());
  EXPECT_FALSE(c.exitRequested());
  feed(c, record(1, 0, b.padded()));
  EXPECT_TRUE(c.exitRequested());
  EXPECT_EQ(c.exitStatus(), 3);
  EXPECT_EQ(out.str(), kHeading + kBeginPrefix + "\n");
}

TEST(Consumer, RecordWithoutActionsShowsTheProbe) {
  ir::Program program;
  program.ecbs.push_back(makeEcb(1, 1, "dtrace", "", "BEGIN", 0));
  Capture out, err;
  Consumer c(program, textSink(out.file(), false), err.file());
  feed(c, record(1, 0, {}));
  EXPECT_EQ(out.str(), kHeading + kBeginPrefix + "\n");
}

TEST(Consumer, FaultGoesToStderrWithTheFaultingProbe) {
  TraceProgram p;
  Capture out, err;
  Consumer c(p.program, textSink(out.file(), false), err.file());
  ir::FaultRecord fault{2, static_cast<uint32_t>(ir::Fault::DivZero), 0, 1, 12};
  EXPECT_EQ(feed(c, faultRecord(fault)), 0);
  EXPECT_EQ(err.str(),
            "dtrace: error on enabled probe ID 2 (ID 412: syscall::read:entry): "
            "divide-by-zero in action #1 at DIF offset 12\n");
  // The heading comes first, as for any record (the Guide's badptr.d).
  EXPECT_EQ(out.str(), std::string(dtrace::print::kProbeHeading));
  EXPECT_EQ(c.faultCount(), 1u);
}

TEST(Consumer, BadAddressFaultInPredicate) {
  TraceProgram p;
  ir::FaultRecord fault{1, static_cast<uint32_t>(ir::Fault::BadAddr), 0x10, 0, 4};
  EXPECT_EQ(formatFault(p.program, fault),
            "dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): invalid address (0x10) "
            "in predicate at DIF offset 4");
  fault.difOffset = UINT32_MAX;
  fault.fault = static_cast<uint32_t>(ir::Fault::BadAlign);
  EXPECT_EQ(formatFault(p.program, fault),
            "dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): invalid alignment "
            "(0x10) in predicate");
}

TEST(Consumer, MalformedRecordsAreRejected) {
  TraceProgram p;
  Capture out, err;
  Consumer c(p.program, textSink(out.file(), false), err.file());
  EXPECT_EQ(feed(c, record(9, 0, p.intRecord.padded())), -EINVAL);
  EXPECT_NE(c.lastError().find("unknown EPID 9"), std::string::npos);
  EXPECT_EQ(feed(c, record(1, 0, {1, 2})), -EINVAL);
  const uint8_t tiny[2] = {};
  EXPECT_EQ(c.handleRecord(tiny, sizeof tiny), -EINVAL);
  EXPECT_EQ(out.str(), "");
}

TEST(FaultMessages, EveryFaultHasDTracesWords) {
  EXPECT_STREQ(ir::faultMessage(ir::Fault::BadAddr), "invalid address");
  EXPECT_STREQ(ir::faultMessage(ir::Fault::BadAlign), "invalid alignment");
  EXPECT_STREQ(ir::faultMessage(ir::Fault::IllOp), "illegal operation");
  EXPECT_STREQ(ir::faultMessage(ir::Fault::DivZero), "divide-by-zero");
  EXPECT_STREQ(ir::faultMessage(ir::Fault::NoScratch), "out of scratch space");
  EXPECT_STREQ(ir::faultMessage(ir::Fault::KPriv), "invalid kernel access");
  EXPECT_STREQ(ir::faultMessage(ir::Fault::UPriv), "invalid user access");
  EXPECT_STREQ(ir::faultMessage(ir::Fault::TupOflow), "tuple stack overflow");
  EXPECT_STREQ(ir::faultMessage(ir::Fault::BadStack), "bad stack");
  EXPECT_STREQ(ir::faultMessage(static_cast<ir::Fault>(99)), "unknown fault");
}

TEST(DropMessages, SingularAndPlural) {
  EXPECT_EQ(formatDrops(1, 0), "dtrace: 1 drop on CPU 0");
  EXPECT_EQ(formatDrops(1234, 1), "dtrace: 1234 drops on CPU 1");
  EXPECT_EQ(formatAggregationDrops(5, 1), "dtrace: 5 aggregation drops on CPU 1");
  EXPECT_EQ(formatDynvarDrops(5), "dtrace: 5 dynamic variable drops");
  EXPECT_EQ(formatDynvarDrops(1), "dtrace: 1 dynamic variable drop");
}

}  // namespace
}  // namespace dtrace::consume
