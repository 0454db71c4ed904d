#include "probegen/input_objects.h"

#include <elf.h>
#include <gtest/gtest.h>

#include "probegen_test_util.h"

namespace dtrace::probegen {
namespace {

const ElfTarget k64{ELFCLASS64, ELFDATA2LSB, EM_X86_64};
const ElfTarget k32{ELFCLASS32, ELFDATA2LSB, EM_386};

InputObject object(const std::string& path, ElfTarget target, std::vector<NotedProbe> probes = {}) {
  return {path, target, std::move(probes)};
}

TEST(InputObjects, TheObjectsChooseTheTarget) {
  EXPECT_EQ(*outputTarget({}, 0), k64);
  EXPECT_EQ(*outputTarget({}, 32), k32);
  EXPECT_EQ(*outputTarget({object("a.o", k32), object("b.o", k32)}, 0), k32);
  const ElfTarget arm{ELFCLASS64, ELFDATA2LSB, EM_AARCH64};
  EXPECT_EQ(*outputTarget({object("a.o", arm)}, 64), arm);
}

TEST(InputObjects, ClassesAndMachinesMustAgree) {
  EXPECT_TRUE(mixesClasses({object("a.o", k64), object("b.o", k32)}, 0));
  EXPECT_FALSE(mixesClasses({object("a.o", k64), object("b.o", k32)}, 64));  // -64 decides
  EXPECT_FALSE(mixesClasses({object("a.o", k64), object("b.o", k64)}, 0));
  auto wrongClass = outputTarget({object("a.o", k64), object("b.o", k32)}, 64);
  ASSERT_FALSE(wrongClass);
  EXPECT_EQ(wrongClass.error().message, "incorrect ELF class for object file: b.o");
  const ElfTarget arm{ELFCLASS64, ELFDATA2LSB, EM_AARCH64};
  auto wrongMachine = outputTarget({object("a.o", k64), object("b.o", arm)}, 0);
  ASSERT_FALSE(wrongMachine);
  EXPECT_EQ(wrongMachine.error().message, "incorrect ELF machine type for object file: b.o");
}

TEST(InputObjects, ProbeSitesMustBeDeclared) {
  auto providers = testing::providersOf("provider myapp { probe query__start(); };");
  ASSERT_TRUE(providers);
  EXPECT_TRUE(checkNotedProbes(
      {object("a.o", k64, {{"myapp", "query__start"}, {"libc", "setjmp"}})}, *providers));
  auto stale = checkNotedProbes({object("a.o", k64, {{"myapp", "query__done"}})}, *providers);
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().message, "no such probe query-done in a.o");
}

}  // namespace
}  // namespace dtrace::probegen
