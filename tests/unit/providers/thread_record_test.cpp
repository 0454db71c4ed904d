// A thread record written by a real recorder program, as root: the
// recorder on sys_enter records each system call's number in the calling
// thread's record, read back from user space through a pidfd (the key of
// a task-storage map).
#include "providers/thread_record.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/fd.h"

namespace dtrace::providers {
namespace {

uint64_t monotonicNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

TEST(ThreadRecordTest, RecorderWritesTimeAndValuesForTheCallingThread) {
  Result<std::shared_ptr<ThreadRecord>> record = ThreadRecord::create("dt_test_record", 3);
  ASSERT_TRUE(record) << record.error().message;
  StartPoint start;
  start.rawTracepoint = "sys_enter";
  start.values = {{8}, {8}};  // ctx word 1 (the system call's number), twice
  ASSERT_TRUE((*record)->start("sys_enter", start));
  ASSERT_TRUE((*record)->start("sys_enter", start));  // once per key: no second recorder

  const Fd self(static_cast<int>(syscall(SYS_pidfd_open, getpid(), 0)));
  ASSERT_TRUE(self.valid());
  uint64_t words[3] = {};
  const uint64_t before = monotonicNs();
  // The lookup is itself a system call: sys_enter recorded bpf() just before it ran.
  ASSERT_TRUE((*record)->lookup(self.get(), words));
  EXPECT_EQ(words[1], static_cast<uint64_t>(SYS_bpf));
  EXPECT_EQ(words[2], static_cast<uint64_t>(SYS_bpf));
  EXPECT_GE(words[0], before);
  EXPECT_LE(words[0], monotonicNs());
}

TEST(ThreadRecordTest, RecorderProgramReadsUserMemoryOnlyWhenAsked) {
  const std::vector<bpf::Insn> plain = threadRecorderProgram(3, {{112}});
  const std::vector<bpf::Insn> indirect = threadRecorderProgram(3, {{112, 24}});
  EXPECT_GT(indirect.size(), plain.size());
}

}  // namespace
}  // namespace dtrace::providers
