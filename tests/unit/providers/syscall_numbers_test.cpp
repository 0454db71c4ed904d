#include "providers/syscall_numbers.h"

#include <gtest/gtest.h>
#include <sys/syscall.h>

#include "bpf/disasm.h"
#include "providers/syscall_dispatch.h"
#include "types/readable_kernel_pointer.h"

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

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
  return n;
}

TEST(SyscallDispatcher, ProgramsTailCallByNumber) {
  for (SyscallDirection d : {SyscallDirection::Entry, SyscallDirection::Return}) {
    const std::string text = bpf::disassemble(syscallDispatcherProgram(d, 3, 469));
    EXPECT_NE(text.find("tail_call"), std::string::npos) << text;
    EXPECT_NE(text.find("> 0x1d5"), std::string::npos) << text;  // 469
    // sys_exit's number is a plain load through BTF pointers: no helper
    // copies memory on every system call.
    EXPECT_EQ(text.find("probe_read"), std::string::npos) << text;
  }
  // Every other system call pays sys_enter's dispatcher: no helper before
  // the tail call.
  const std::string entry =
      bpf::disassemble(syscallDispatcherProgram(SyscallDirection::Entry, 3, 469));
  EXPECT_EQ(occurrences(entry, "call "), 1u) << entry;
}

// The probe program's own guard: its number, then not an ia32 call. The
// task it leaves is a helper's only when the program asks for one it may
// hand to helpers; otherwise, and for sys_exit's pt_regs, plain loads
// through pointers cast by bpf_rdonly_cast where the kernel has it.
TEST(SyscallDispatcher, ProbeGuardChecksNumberAndIa32) {
  const bool cast = types::canCastForLoads("task_struct") && types::canCastForLoads("pt_regs");
  for (SyscallDirection d : {SyscallDirection::Entry, SyscallDirection::Return}) {
    for (bool trustedTask : {false, true}) {
      bpf::Assembler a;
      bpf::Label skip = a.newLabel();
      syscallProbeGuard(a, d, SYS_getppid, skip, trustedTask);
      a.emit(bpf::mov64(bpf::R0, 1));
      a.bind(skip);
      a.emit(bpf::exit());
      const std::string text = bpf::disassemble(a.finish().value());
      EXPECT_NE(text.find("!= 0x6e"), std::string::npos) << text;  // 110, getppid
      EXPECT_NE(text.find("& 0x2"), std::string::npos) << text;    // TS_COMPAT
      EXPECT_EQ(text.find("probe_read"), std::string::npos) << text;
      EXPECT_EQ(text.find("get_current_task_btf") != std::string::npos, trustedTask || !cast)
          << text;
      EXPECT_EQ(text.find("task_pt_regs") != std::string::npos,
                d == SyscallDirection::Return && !cast)
          << text;
      // The number is checked before any call: other system calls pay none.
      if (cast) {
        EXPECT_LT(text.find("!= 0x6e"), text.find("get_current_task")) << text;
      }
    }
  }
}

}  // namespace
}  // namespace dtrace::providers
