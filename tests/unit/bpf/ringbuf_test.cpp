// The ring buffer reader against real BPF_MAP_TYPE_RINGBUF maps: a tiny
// program, run with BPF_PROG_RUN, writes each record with
// bpf_ringbuf_output() (or reserves and discards one), so the records and
// their headers are the kernel's own. Each test runs with a window that
// only slides and with one that grows (to the whole ring, as records are
// read quickly here). Needs root; skipped without it.
#include "bpf/ringbuf.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "bpf/assembler.h"
#include "bpf/map.h"
#include "bpf/program.h"
#include "test_programs.h"

namespace dtrace::bpf {
namespace {

constexpr uint32_t kRingBytes = 16 * 1024;
constexpr size_t kWindowBytes = 4096;  // a page: records cross windows often
constexpr uint32_t kLargestRecord = 8192;

// What a record looks like: byte i is seed + 7 * i.
std::vector<uint8_t> pattern(size_t size, uint8_t seed) {
  std::vector<uint8_t> bytes(size);
  for (size_t i = 0; i < size; i++) bytes[i] = static_cast<uint8_t>(seed + 7 * i);
  return bytes;
}

struct Seen {
  size_t size;
  uint8_t seed;
  bool intact;  // every byte as pattern() made it
  bool operator==(const Seen&) const = default;
};

Seen expected(size_t size, uint8_t seed) { return Seen{size, seed, true}; }

std::ostream& operator<<(std::ostream& os, const Seen& s) {
  return os << "{" << s.size << " bytes, seed " << int{s.seed} << (s.intact ? "" : ", damaged")
            << "}";
}

// ringbuf_output(ring, source[0], args[0] bytes); returns its result.
std::vector<Insn> outputProgram(int ringFd, int sourceFd) {
  Assembler a;
  Label fail = a.newLabel();
  a.emit(ldx(Size::DW, R6, R1, 0));
  testing::lookupKeyZero(a, sourceFd);
  a.jumpIf(BPF_JEQ, R0, 0, fail);
  a.jumpIf(BPF_JGT, R6, static_cast<int32_t>(kLargestRecord), fail);
  a.emit(ldMapFd(R1, ringFd));
  a.emit(mov64(R2, R0));
  a.emit(mov64(R3, R6));
  a.emit(mov64(R4, 0));
  a.emit(call(BPF_FUNC_ringbuf_output));
  a.emit(exit());
  a.bind(fail);
  a.emit(mov64(R0, 1));
  a.emit(exit());
  return a.finish().value();
}

// Reserves 16 bytes and discards them: a record the reader must skip.
std::vector<Insn> discardProgram(int ringFd) {
  Assembler a;
  Label out = a.newLabel();
  a.emit(ldMapFd(R1, ringFd));
  a.emit(mov64(R2, 16));
  a.emit(mov64(R3, 0));
  a.emit(call(BPF_FUNC_ringbuf_reserve));
  a.jumpIf(BPF_JEQ, R0, 0, out);
  a.emit(mov64(R1, R0));
  a.emit(mov64(R2, 0));
  a.emit(call(BPF_FUNC_ringbuf_discard));
  a.bind(out);
  a.emit(mov64(R0, 0));
  a.emit(exit());
  return a.finish().value();
}

// The resident bytes of this process's BPF map mappings.
uint64_t residentMapBytes() {
  std::ifstream smaps("/proc/self/smaps");
  uint64_t kb = 0;
  bool inMap = false;
  for (std::string line; std::getline(smaps, line);) {
    if (line.find("anon_inode:bpf-map") != std::string::npos) {
      inMap = true;
    } else if (line.rfind("Rss:", 0) == 0) {
      if (inMap) kb += std::stoull(line.substr(4));
      inMap = false;
    }
  }
  return kb * 1024;
}

class RingBufferTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root";
    auto source = Map::create(BPF_MAP_TYPE_ARRAY, "rb_source", 4, kLargestRecord, 1);
    ASSERT_TRUE(source.ok()) << source.error().message;
    source_.emplace(std::move(*source));
    for (int i = 0; i < 2; i++) {
      auto ring = Map::create(BPF_MAP_TYPE_RINGBUF, "rb_test", 0, 0, kRingBytes);
      ASSERT_TRUE(ring.ok()) << ring.error().message;
      rings_.push_back(std::move(*ring));
      auto output = Program::load(BPF_PROG_TYPE_RAW_TRACEPOINT, "rb_output",
                                  outputProgram(rings_.back().fd(), source_->fd()));
      ASSERT_TRUE(output.ok()) << output.error().message;
      outputs_.push_back(std::move(*output));
    }
    auto discard = Program::load(BPF_PROG_TYPE_RAW_TRACEPOINT, "rb_discard",
                                 discardProgram(rings_.front().fd()));
    ASSERT_TRUE(discard.ok()) << discard.error().message;
    discard_.emplace(std::move(*discard));
  }

  // Writes a record of `size` bytes made by pattern(size, seed) into ring `ring`.
  void emit(size_t size, uint8_t seed, size_t ring = 0) {
    std::vector<uint8_t> value = pattern(kLargestRecord, 0);
    const std::vector<uint8_t> record = pattern(size, seed);
    std::copy(record.begin(), record.end(), value.begin());
    const uint32_t key = 0;
    ASSERT_TRUE(source_->update(&key, value.data()).ok());
    const uint64_t args[] = {size};
    auto r0 = outputs_.at(ring).run(args);
    ASSERT_TRUE(r0.ok()) << r0.error().message;
    ASSERT_EQ(*r0, 0u) << "bpf_ringbuf_output failed";
  }

  void discardOne() {
    auto r0 = discard_->run();
    ASSERT_TRUE(r0.ok()) << r0.error().message;
  }

  // A reader of the rings (the first, or both) that notes what it is handed.
  RingBuffer open(size_t rings = 1) {
    std::vector<int> fds;
    for (size_t i = 0; i < rings; i++) fds.push_back(rings_.at(i).fd());
    auto rb = RingBuffer::open(
        fds,
        [this](const void* data, size_t size) {
          const auto* bytes = static_cast<const uint8_t*>(data);
          const uint8_t seed = size > 0 ? bytes[0] : 0;
          seen_.push_back(
              Seen{size, seed, pattern(size, seed) == std::vector<uint8_t>(bytes, bytes + size)});
          if (onRecord_) onRecord_();
          return 0;
        },
        RingWindow{kWindowBytes, GetParam()});
    EXPECT_TRUE(rb.ok()) << rb.error().message;
    return std::move(*rb);
  }

  std::optional<Map> source_;
  std::vector<Map> rings_;
  std::vector<Program> outputs_;
  std::optional<Program> discard_;
  std::vector<Seen> seen_;
  std::function<void()> onRecord_;
};

TEST_P(RingBufferTest, RecordsArriveInOrderAndWhole) {
  RingBuffer rb = open();
  const size_t sizes[] = {1, 8, 13, 100, 255, 1024, 64};
  std::vector<Seen> want;
  for (size_t i = 0; i < std::size(sizes); i++) {
    emit(sizes[i], static_cast<uint8_t>(i + 1));
    want.push_back(expected(sizes[i], static_cast<uint8_t>(i + 1)));
  }
  auto n = rb.consume();
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_EQ(*n, static_cast<int>(std::size(sizes)));
  EXPECT_EQ(seen_, want);
  auto again = rb.consume();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, 0);
}

// Records of 1,000 bytes take 1,008 with their header, which does not
// divide the ring's 16 KiB: the 17th (from 16,128) runs past the end of
// the ring into its start, and so do others on later laps.
TEST_P(RingBufferTest, RecordStraddlingTheWrapAroundIsWhole) {
  RingBuffer rb = open();
  std::vector<Seen> want;
  for (int i = 0; i < 40; i++) {
    emit(1000, static_cast<uint8_t>(i));
    want.push_back(expected(1000, static_cast<uint8_t>(i)));
    if (i % 3 == 2) {
      ASSERT_TRUE(rb.consume().ok());  // the ring holds at most 16 of them
    }
  }
  ASSERT_TRUE(rb.consume().ok());
  EXPECT_EQ(seen_, want);
}

TEST_P(RingBufferTest, RecordLargerThanTheWindowIsWhole) {
  RingBuffer rb = open();
  std::vector<Seen> want;
  // 6,000 bytes against a 4 KiB window, the third across the wrap-around
  // (from 12,080 to 18,088), then small records again.
  for (int i = 0; i < 4; i++) {
    emit(6000, static_cast<uint8_t>(10 + i));
    want.push_back(expected(6000, static_cast<uint8_t>(10 + i)));
    emit(24, static_cast<uint8_t>(20 + i));
    want.push_back(expected(24, static_cast<uint8_t>(20 + i)));
    ASSERT_TRUE(rb.consume().ok());
  }
  emit(kLargestRecord, 99);  // half the ring
  want.push_back(expected(kLargestRecord, 99));
  ASSERT_TRUE(rb.consume().ok());
  EXPECT_EQ(seen_, want);
}

TEST_P(RingBufferTest, DiscardedRecordsAreSkipped) {
  RingBuffer rb = open();
  discardOne();
  emit(32, 1);
  discardOne();
  discardOne();
  emit(40, 2);
  discardOne();
  auto n = rb.consume();
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_EQ(*n, 2);
  EXPECT_EQ(seen_, (std::vector<Seen>{expected(32, 1), expected(40, 2)}));
}

// A record written while an interval is being read (here, from the
// handler) waits for the next interval; the other ring is not touched.
TEST_P(RingBufferTest, IntervalStopsAtItsSnapshotOfTheProducer) {
  RingBuffer rb = open(2);
  emit(16, 1);
  emit(16, 2);
  emit(16, 50, 1);
  bool wrote = false;
  onRecord_ = [&] {
    if (!wrote) emit(16, 3);
    wrote = true;
  };
  auto first = rb.consumeInterval(0);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_EQ(*first, 2);
  EXPECT_EQ(seen_, (std::vector<Seen>{expected(16, 1), expected(16, 2)}));
  emit(16, 4);
  auto second = rb.consumeInterval(0);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*second, 2);
  auto other = rb.consumeInterval(1);
  ASSERT_TRUE(other.ok());
  EXPECT_EQ(*other, 1);
  EXPECT_EQ(seen_, (std::vector<Seen>{expected(16, 1), expected(16, 2), expected(16, 3),
                                      expected(16, 4), expected(16, 50)}));
}

TEST_P(RingBufferTest, HandlerErrorStopsTheDrainAfterItsRecord) {
  std::vector<size_t> sizes;
  auto rb = RingBuffer::open(
      rings_.front().fd(),
      [&](const void*, size_t size) {
        sizes.push_back(size);
        return size == 16 ? -EIO : 0;
      },
      RingWindow{kWindowBytes, GetParam()});
  ASSERT_TRUE(rb.ok()) << rb.error().message;
  emit(8, 1);
  emit(16, 2);
  emit(24, 3);
  auto failed = rb->consume();
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().message.find("Input/output error"), std::string::npos);
  auto rest = rb->consume();
  ASSERT_TRUE(rest.ok()) << rest.error().message;
  EXPECT_EQ(*rest, 1);
  EXPECT_EQ(sizes, (std::vector<size_t>{8, 16, 24}));
}

TEST_P(RingBufferTest, PollWaitsForRecordsThenDrains) {
  RingBuffer rb = open(2);
  auto none = rb.poll(0);
  ASSERT_TRUE(none.ok()) << none.error().message;
  EXPECT_EQ(*none, 0);
  emit(32, 7, 1);
  int handled = 0;
  for (int tries = 0; tries < 10 && handled == 0; tries++) {
    auto n = rb.poll(100);
    ASSERT_TRUE(n.ok()) << n.error().message;
    handled += *n;
  }
  EXPECT_EQ(handled, 1);
  EXPECT_EQ(seen_, (std::vector<Seen>{expected(32, 7)}));
}

// The point of the window: a 4 MiB ring costs the reader its window and
// two pages of resident memory, not the ring twice over.
TEST_P(RingBufferTest, OnlyTheWindowIsResident) {
  auto big = Map::create(BPF_MAP_TYPE_RINGBUF, "rb_big", 0, 0, 4 << 20);
  ASSERT_TRUE(big.ok()) << big.error().message;
  const uint64_t before = residentMapBytes();
  const RingWindow window{.grows = GetParam()};
  auto rb = RingBuffer::open(
      big->fd(), [](const void*, size_t) { return 0; }, window);
  ASSERT_TRUE(rb.ok()) << rb.error().message;
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  EXPECT_LE(residentMapBytes() - before, window.bytes + 2 * page);
}

// Read through quickly, a growing window becomes the whole ring (twice
// over, so that no record needs another mapping); a sliding one stays
// within the two pages a record across a page boundary needs.
TEST_P(RingBufferTest, WindowReadQuicklyGrowsToTheWholeRing) {
  RingBuffer rb = open();
  const uint64_t before = residentMapBytes();
  for (int i = 0; i < 40; i++) {
    emit(1000, static_cast<uint8_t>(i));
    ASSERT_TRUE(rb.consume().ok());
  }
  ASSERT_EQ(seen_.size(), 40u);
  const uint64_t grown = residentMapBytes() - before;
  if (GetParam()) {
    EXPECT_EQ(grown, 2 * kRingBytes - kWindowBytes);
  } else {
    EXPECT_LE(grown, kWindowBytes);
  }
}

INSTANTIATE_TEST_SUITE_P(Window, RingBufferTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return info.param ? std::string("Growing") : std::string("Sliding");
                         });

}  // namespace
}  // namespace dtrace::bpf
