#include "providers/tracepoint_format.h"

#include <gtest/gtest.h>

#include "providers/syscall_provider.h"

namespace dtrace::providers {
namespace {

constexpr const char* kEnterOpenat =
    "name: sys_enter_openat\n"
    "ID: 700\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:int dfd;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:const char * filename;\toffset:24;\tsize:8;\tsigned:0;\n"
    "\tfield:int flags;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\tfield:umode_t mode;\toffset:40;\tsize:8;\tsigned:0;\n"
    "\n"
    "print fmt: \"dfd: 0x%08lx, filename: 0x%08lx\", ((unsigned long)(REC->dfd))\n";

constexpr const char* kExitRead =
    "name: sys_exit_read\n"
    "ID: 841\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n"
    "\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n"
    "\n"
    "print fmt: \"0x%lx\", REC->ret\n";

TEST(TracepointFormat, ParsesFields) {
  Result<std::vector<TracepointField>> r = parseTracepointFormat(kEnterOpenat);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 9u);
  const TracepointField& pid = (*r)[3];
  EXPECT_EQ(pid.type, "int");
  EXPECT_EQ(pid.name, "common_pid");
  EXPECT_EQ(pid.offset, 4);
  EXPECT_EQ(pid.size, 4);
  EXPECT_TRUE(pid.isSigned);
  EXPECT_EQ((*r)[0].type, "unsigned short");
  EXPECT_EQ((*r)[6].type, "const char *");
  EXPECT_EQ((*r)[6].name, "filename");
  EXPECT_EQ((*r)[6].offset, 24);
}

TEST(TracepointFormat, TypesAreNormalised) {
  Result<std::vector<TracepointField>> r = parseTracepointFormat(
      "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:1;\n"
      "\tfield:char *const*argv;\toffset:24;\tsize:8;\tsigned:0;\n"
      "\tfield:struct foo  * p;\toffset:32;\tsize:8;\tsigned:0;\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)[0].type, "char[16]");
  EXPECT_EQ((*r)[0].name, "comm");
  EXPECT_EQ((*r)[1].type, "char * const *");
  EXPECT_EQ((*r)[1].name, "argv");
  EXPECT_EQ((*r)[2].type, "struct foo *");
}

TEST(TracepointFormat, RejectsGarbage) {
  EXPECT_FALSE(parseTracepointFormat("").ok());
  EXPECT_FALSE(parseTracepointFormat("\tfield:int x;\toffset:zz;\tsize:4;\n").ok());
}

TEST(TracepointFormat, SyscallEntryArguments) {
  Result<std::vector<TracepointField>> r = parseTracepointFormat(kEnterOpenat);
  ASSERT_TRUE(r.ok());
  std::vector<ArgSource> args = syscallEntryArgs(*r);
  ASSERT_EQ(args.size(), 4u);
  // Read from the saved registers di, si, dx, r10, at their width.
  EXPECT_EQ(args[0].kind, ArgSource::Kind::SyscallArg);
  EXPECT_EQ(args[0].offset, 112);
  EXPECT_EQ(args[0].size, 4);
  EXPECT_TRUE(args[0].isSigned);
  EXPECT_EQ(args[0].typeName, "int");
  EXPECT_EQ(args[1].offset, 104);
  EXPECT_EQ(args[1].size, 8);
  EXPECT_EQ(args[1].typeName, "const char *");
  EXPECT_EQ(args[2].offset, 96);
  EXPECT_EQ(args[3].offset, 56);
  EXPECT_EQ(args[3].size, 2);
  EXPECT_EQ(args[3].typeName, "umode_t");
}

TEST(TracepointFormat, SyscallReturnArguments) {
  Result<std::vector<TracepointField>> r = parseTracepointFormat(kExitRead);
  ASSERT_TRUE(r.ok());
  Result<std::vector<ArgSource>> args = syscallReturnArgs(*r);
  ASSERT_TRUE(args.ok());
  ASSERT_EQ(args->size(), 2u);
  for (const ArgSource& a : *args) {
    EXPECT_EQ(a.kind, ArgSource::Kind::SyscallReturn);
    EXPECT_EQ(a.offset, 8);
    EXPECT_EQ(a.size, 8);
    EXPECT_TRUE(a.isSigned);
  }
  EXPECT_FALSE(syscallReturnArgs(*parseTracepointFormat(kEnterOpenat)).ok());
}

TEST(TracepointFormat, ReadsRealFormat) {
  Result<std::vector<TracepointField>> r = readTracepointFormat("syscalls", "sys_enter_read");
  if (!r.ok()) GTEST_SKIP() << r.error().message;
  std::vector<ArgSource> args = syscallEntryArgs(*r);
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[1].typeName, "char *");
  EXPECT_EQ(args[2].typeName, "size_t");
}

}  // namespace
}  // namespace dtrace::providers
