// The sinks the consumer hands decoded records to: each format's output
// for the same records.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <regex>

#include "../print/memory_file.h"
#include "../print/record_builder.h"
#include "consume/consumer.h"
#include "output/folded_sink.h"
#include "output/json_sink.h"
#include "output/make_sink.h"
#include "output/text_sink.h"

namespace dtrace::output {
namespace {

using testing::Capture;
using testing::RecordBuilder;

// BEGIN tracing the int 42.
struct TraceProgram {
  ir::Program program;
  RecordBuilder data;
  TraceProgram() {
    data.add(int32_t{42});
    ir::Ecb ecb;
    ecb.epid = 1;
    ecb.probeId = 1;
    ecb.dataSize = 8;
    ecb.provider = "dtrace";
    ecb.name = "BEGIN";
    ir::Action trace;
    trace.kind = ir::ActionKind::Trace;
    trace.fields = data.fields();
    ecb.actions.push_back(trace);
    program.ecbs.push_back(ecb);
  }
  std::vector<uint8_t> record(uint32_t cpu) const {
    ir::RecordHeader header{1, cpu};
    std::vector<uint8_t> bytes(sizeof header);
    std::memcpy(bytes.data(), &header, sizeof header);
    const std::vector<uint8_t> padded = data.padded();
    bytes.insert(bytes.end(), padded.begin(), padded.end());
    return bytes;
  }
};

std::string withoutTimestamps(const std::string& json) {
  return std::regex_replace(json, std::regex(R"("timestamp":[0-9]+)"), R"("timestamp":T)");
}

TEST(Sink, JsonRecordIsOneLineWithItsOutput) {
  TraceProgram p;
  Capture out, err;
  consume::Consumer c(p.program, std::make_unique<JsonSink>(out.file()), err.file());
  const std::vector<uint8_t> r = p.record(2);
  EXPECT_EQ(c.handleRecord(r.data(), r.size()), 0);
  EXPECT_EQ(c.printFinal().ok(), true);
  EXPECT_EQ(withoutTimestamps(out.str()),
            R"({"type":"record","timestamp":T,"cpu":2,"id":1,"provider":"dtrace",)"
            R"("module":"","function":"","name":"BEGIN","output":[{"value":42}]})"
            "\n");
  EXPECT_EQ(err.str(), "");
}

TEST(Sink, FoldedRecordsGoToStderr) {
  TraceProgram p;
  Capture out, err;
  consume::Consumer c(p.program, std::make_unique<FoldedSink>(out.file(), err.file(), true, false),
                      err.file());
  const std::vector<uint8_t> r = p.record(0);
  EXPECT_EQ(c.handleRecord(r.data(), r.size()), 0);
  EXPECT_TRUE(c.printFinal().ok());
  c.flush();
  EXPECT_EQ(out.str(), "");  // no aggregations, and no empty line
  EXPECT_EQ(err.str(), "42");
}

TEST(Sink, TextEndsWithAnEmptyLine) {
  TraceProgram p;
  Capture out, err;
  consume::Consumer c(p.program, std::make_unique<TextSink>(out.file(), true, false), err.file());
  const std::vector<uint8_t> r = p.record(0);
  EXPECT_EQ(c.handleRecord(r.data(), r.size()), 0);
  EXPECT_TRUE(c.printFinal().ok());
  EXPECT_EQ(out.str(), "42\n");
}

TEST(Sink, MakeSinkFollowsOformat) {
  TraceProgram p;
  OptionTable options;
  ASSERT_TRUE(options.set("oformat", "json").ok());
  Capture out, err;
  auto sink = makeSink(options, out.file(), err.file(), false, "dtrace");
  ASSERT_TRUE(sink.ok());
  consume::Consumer c(p.program, std::move(*sink), err.file());
  const std::vector<uint8_t> r = p.record(0);
  EXPECT_EQ(c.handleRecord(r.data(), r.size()), 0);
  c.flush();
  EXPECT_EQ(out.str().rfind(R"({"type":"record")", 0), 0u);
}

}  // namespace
}  // namespace dtrace::output
