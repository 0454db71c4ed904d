#include "providers/syscall_numbers.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>

#include "bpf/disasm.h"
#include "providers/syscall_dispatch.h"

namespace dtrace::providers {
namespace {

TEST(SyscallNumbers, MatchTheCLibrary) {
  EXPECT_EQ(syscallNumber("read"), SYS_read);
  EXPECT_EQ(syscallNumber("getppid"), SYS_getppid);
  EXPECT_EQ(syscallNumber("openat"), SYS_openat);
  EXPECT_EQ(syscallNumber("exit_group"), SYS_exit_group);
  EXPECT_EQ(syscallNumber("nosuchcall"), std::nullopt);
  EXPECT_GE(maxSyscallNumber(), 450);
  EXPECT_LT(maxSyscallNumber(), 1024);
}

TEST(SyscallNumbers, TracefsNamesAndAliases) {
  EXPECT_EQ(syscallForTracepoint("read")->number, SYS_read);
  std::optional<SyscallId> fstat = syscallForTracepoint("newfstat");
  ASSERT_TRUE(fstat);
  EXPECT_EQ(fstat->name, "fstat");
  EXPECT_EQ(fstat->number, SYS_fstat);
  EXPECT_EQ(syscallForTracepoint("newuname")->name, "uname");
  EXPECT_EQ(syscallForTracepoint("newstat")->number, SYS_stat);
  EXPECT_EQ(syscallForTracepoint("newlstat")->number, SYS_lstat);
  EXPECT_EQ(syscallForTracepoint("sendfile64")->number, SYS_sendfile);
  EXPECT_EQ(syscallForTracepoint("umount")->name, "umount2");
  // Newer than the installed UAPI header, but in the table.
  EXPECT_EQ(syscallForTracepoint("cachestat")->number, 451);
  EXPECT_EQ(syscallForTracepoint("nosuchcall"), std::nullopt);
}

TEST(SyscallDispatcher, ProgramsTailCallByNumber) {
  for (SyscallDirection d : {SyscallDirection::Entry, SyscallDirection::Return}) {
    const std::string text = bpf::disassemble(syscallDispatcherProgram(d, 3, 469));
    EXPECT_NE(text.find("tail_call"), std::string::npos) << text;
    EXPECT_NE(text.find("> 0x1d5"), std::string::npos) << text;  // 469
    // The ia32 check and sys_exit's number are plain loads through BTF
    // pointers: no helper copies memory on every system call.
    EXPECT_NE(text.find("get_current_task_btf"), std::string::npos) << text;
    EXPECT_EQ(text.find("probe_read"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace dtrace::providers
