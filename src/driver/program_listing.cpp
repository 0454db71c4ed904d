#include "driver/program_listing.h"

#include <cstdio>

#include "bpf/disasm.h"

namespace dtrace::driver {
namespace {

// dt_dis_prefix()'s columns: slot, byte offset, then the raw fields.
std::string prefix(size_t slot, const bpf::Insn& insn) {
  char text[64];
  std::snprintf(text, sizeof text, "%04zu %05zu: %02x %01x %01x %04x %08x    ", slot, slot * 8,
                insn.code, insn.dst_reg, insn.src_reg, static_cast<uint16_t>(insn.off),
                static_cast<uint32_t>(insn.imm));
  return text;
}

// The verifier's text of an instruction without its "(7b) " opcode, which
// the prefix already shows.
std::string instructionText(const bpf::Insn& insn, const bpf::Insn* next) {
  std::string text = bpf::disassembleOne(insn, next);
  if (text.size() > 5 && text[0] == '(' && text[3] == ')' && text[4] == ' ') text.erase(0, 5);
  return text;
}

}  // namespace

std::string formatProgramListing(const std::string& heading, std::span<const bpf::Insn> insns,
                                 const std::vector<size_t>& clauseStarts,
                                 const std::vector<ListedClause>& clauses) {
  std::string out = "\nDisassembly of program " + heading + ", " + std::to_string(insns.size()) +
                    " instructions:\n";
  char columns[80];
  std::snprintf(columns, sizeof columns, "%-4s %-5s  %-20s    %s\n", "INS", "OFF", "OPCODE",
                "INSTRUCTION");
  out += columns;
  size_t nextClause = 0;
  for (size_t i = 0; i < insns.size(); i++) {
    // Headings for the clauses that start here (and for the code after them).
    while (nextClause < clauseStarts.size() && clauseStarts[nextClause] <= i) {
      if (nextClause < clauses.size()) {
        out += "Disassembly of clause " + clauses[nextClause].description + ", <clause " +
               std::to_string(clauses[nextClause].number) + ">:\n";
      } else {
        out += "Disassembly of program " + heading + ", after its clauses:\n";
      }
      nextClause++;
    }
    const bpf::Insn& insn = insns[i];
    const bool wide = insn.code == (BPF_LD | BPF_IMM | BPF_DW) && i + 1 < insns.size();
    out += prefix(i, insn) + instructionText(insn, wide ? &insns[i + 1] : nullptr) + "\n";
    if (wide) {  // the second slot of a 64-bit load, as dt_dis_load_imm() shows it
      ++i;
      std::string line = prefix(i, insns[i]);
      while (line.back() == ' ') line.pop_back();
      out += line + "\n";
    }
  }
  return out;
}

}  // namespace dtrace::driver
