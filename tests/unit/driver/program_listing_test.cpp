#include "driver/program_listing.h"

#include <gtest/gtest.h>

#include "bpf/insn.h"

namespace dtrace::driver {
namespace {

using namespace bpf;

TEST(ProgramListing, OracleLayoutWithClauseHeadings) {
  const std::array<Insn, 2> wide = ldImm64(R1, 0x100000000ULL);
  const std::vector<Insn> insns = {mov64(R6, 0), wide[0], wide[1], mov64(R0, -1), exit()};
  const std::string text =
      formatProgramListing("dtrace:::BEGIN (probe ID 1)", insns, {1, 3}, {{":::BEGIN", 0}});
  EXPECT_EQ(text,
            "\nDisassembly of program dtrace:::BEGIN (probe ID 1), 5 instructions:\n"
            "INS  OFF    OPCODE                  INSTRUCTION\n"
            "0000 00000: b7 6 0 0000 00000000    r6 = 0\n"
            "Disassembly of clause :::BEGIN, <clause 0>:\n"
            "0001 00008: 18 1 0 0000 00000000    r1 = 0x100000000\n"
            "0002 00016: 00 0 0 0000 00000001\n"
            "Disassembly of program dtrace:::BEGIN (probe ID 1), after its clauses:\n"
            "0003 00024: b7 0 0 0000 ffffffff    r0 = -1\n"
            "0004 00032: 95 0 0 0000 00000000    exit\n");
}

}  // namespace
}  // namespace dtrace::driver
