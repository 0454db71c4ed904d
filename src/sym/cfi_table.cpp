#include "sym/cfi_table.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <optional>

#include "sym/cfi_fde_ranges.h"
#include "sym/offline_dwfl.h"
#include "util/fd.h"

namespace dtrace::sym {

namespace {

// DWARF register numbers on x86-64.
constexpr int kRbp = 6;
constexpr int kRsp = 7;
constexpr int kReturnAddress = 16;

// A stretch of addresses and the row that holds across it.
struct Span {
  uint64_t start;
  uint64_t end;
  CfiRow row;
};

CfiRow unknownRow() { return CfiRow{}; }

// "Register plus offset": DW_OP_bregN off, or DW_OP_bregx N off.
std::optional<std::pair<int, int64_t>> registerPlusOffset(const Dwarf_Op* ops, size_t nops) {
  if (nops != 1) return std::nullopt;
  if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
    return std::pair{ops[0].atom - DW_OP_breg0, static_cast<int64_t>(ops[0].number)};
  }
  if (ops[0].atom == DW_OP_bregx) {
    return std::pair{static_cast<int>(ops[0].number), static_cast<int64_t>(ops[0].number2)};
  }
  return std::nullopt;
}

// The CFA expression of lazy-binding PLT entries: rsp+8, plus 8 more when
// the PC is past the entry's push (byte 11 of a 16-byte entry, 10 for
// some linkers). Its answer depends on the PC, which a row cannot say; it
// is taken as rsp+8, which is right at the entry's first instruction, where
// nearly every sample in a PLT lands (the jmp through the GOT).
bool isPltExpression(const Dwarf_Op* ops, size_t nops) {
  if (nops != 9) return false;
  const bool threshold = ops[4].atom == DW_OP_lit11 || ops[4].atom == DW_OP_lit10;
  return ops[0].atom == DW_OP_breg7 && ops[0].number == 8 && ops[1].atom == DW_OP_breg16 &&
         ops[1].number == 0 && ops[2].atom == DW_OP_lit15 && ops[3].atom == DW_OP_and &&
         threshold && ops[5].atom == DW_OP_ge && ops[6].atom == DW_OP_lit3 &&
         ops[7].atom == DW_OP_shl && ops[8].atom == DW_OP_plus;
}

enum class SavedAt { Unchanged, CfaOffset, Elsewhere };

// Where the caller's value of a register is, as dwarf_frame_register
// describes it: same_value (no ops, null pointer); an offset(N) rule
// (DW_OP_call_frame_cfa, then DW_OP_plus_uconst N when N != 0, with N as
// a wrapped unsigned when negative); anything else is not expressible in
// a row. An undefined register (no ops, ops_mem) counts as unchanged:
// there is no caller value to find.
SavedAt savedRegister(Dwarf_Frame* frame, int regno, int64_t& offset) {
  Dwarf_Op opsMem[3];
  Dwarf_Op* ops = nullptr;
  size_t nops = 0;
  if (dwarf_frame_register(frame, regno, opsMem, &ops, &nops) != 0) return SavedAt::Elsewhere;
  if (nops == 0) return SavedAt::Unchanged;
  if (ops[0].atom != DW_OP_call_frame_cfa) return SavedAt::Elsewhere;
  if (nops == 1) {
    offset = 0;
    return SavedAt::CfaOffset;
  }
  if (nops == 2 && ops[1].atom == DW_OP_plus_uconst) {
    offset = static_cast<int64_t>(ops[1].number);
    return SavedAt::CfaOffset;
  }
  return SavedAt::Elsewhere;
}

// The row for one frame state of libdw's.
CfiRow rowOf(Dwarf_Frame* frame, bool signalFrame) {
  CfiRow row;
  if (signalFrame) {
    row.rule = CfiRow::Rule::SignalFrame;
    return row;
  }
  Dwarf_Op* ops = nullptr;
  size_t nops = 0;
  if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops == 0) return unknownRow();
  if (isPltExpression(ops, nops)) {
    row.rule = CfiRow::Rule::SpOffset;
    row.cfaOffset = 8;
  } else if (auto cfa = registerPlusOffset(ops, nops); cfa &&
                                                       (cfa->first == kRsp || cfa->first == kRbp) &&
                                                       cfa->second == int32_t(cfa->second)) {
    row.rule = cfa->first == kRsp ? CfiRow::Rule::SpOffset : CfiRow::Rule::BpOffset;
    row.cfaOffset = static_cast<int32_t>(cfa->second);
  } else {
    return unknownRow();
  }
  int64_t returnAddressAt = 0;
  if (savedRegister(frame, kReturnAddress, returnAddressAt) != SavedAt::CfaOffset ||
      returnAddressAt != -8) {
    return unknownRow();
  }
  int64_t bpAt = 0;
  switch (savedRegister(frame, kRbp, bpAt)) {
    case SavedAt::Unchanged:
      break;
    case SavedAt::CfaOffset:
      if (bpAt == 0 || bpAt != int32_t(bpAt)) return unknownRow();
      row.bpOffset = static_cast<int32_t>(bpAt);
      break;
    case SavedAt::Elsewhere:
      return unknownRow();
  }
  return row;
}

// The spans of one FDE: libdw's frame state at its start, then at the end
// of each state, until the FDE's end.
void addFdeSpans(Dwarf_CFI* cfi, const FdeRange& fde, std::vector<Span>& spans) {
  for (uint64_t address = fde.start; address < fde.end;) {
    Dwarf_Frame* frame = nullptr;
    if (dwarf_cfi_addrframe(cfi, address, &frame) != 0) {
      spans.push_back({address, fde.end, unknownRow()});
      return;
    }
    Dwarf_Addr start = 0, end = 0;
    bool signalFrame = false;
    const int returnRegister = dwarf_frame_info(frame, &start, &end, &signalFrame);
    CfiRow row = returnRegister == kReturnAddress ? rowOf(frame, signalFrame || fde.signalFrame)
                                                  : unknownRow();
    std::free(frame);
    end = std::min<uint64_t>(end, fde.end);
    if (end <= address) end = fde.end;  // never loop on a state that does not advance
    spans.push_back({address, end, row});
    address = end;
  }
}

void addSectionSpans(Dwarf_CFI* cfi, const std::vector<FdeRange>& fdes, std::vector<Span>& spans) {
  for (const FdeRange& fde : fdes) addFdeSpans(cfi, fde, spans);
}

// The spans in address order as rows: equal neighbours merged, gaps and the
// end of the last span marked Unknown. Where spans overlap (two FDEs for one
// address) the one starting first wins.
std::vector<CfiRow> rowsOf(std::vector<Span>& spans) {
  std::stable_sort(spans.begin(), spans.end(),
                   [](const Span& a, const Span& b) { return a.start < b.start; });
  std::vector<CfiRow> rows;
  auto add = [&rows](uint64_t address, CfiRow row) {
    row.address = address;
    if (rows.empty() || rows.back().rule != row.rule || rows.back().cfaOffset != row.cfaOffset ||
        rows.back().bpOffset != row.bpOffset) {
      rows.push_back(row);
    }
  };
  uint64_t covered = 0;
  for (const Span& span : spans) {
    uint64_t start = span.start;
    if (!rows.empty() && start < covered) start = covered;
    if (start >= span.end) continue;
    if (!rows.empty() && start > covered) add(covered, unknownRow());
    add(start, span.row);
    covered = span.end;
  }
  if (!rows.empty()) add(covered, unknownRow());
  return rows;
}

bool overlapsAny(const FdeRange& fde, const std::vector<FdeRange>& sortedRanges) {
  auto after =
      std::upper_bound(sortedRanges.begin(), sortedRanges.end(), fde.start,
                       [](uint64_t address, const FdeRange& r) { return address < r.start; });
  if (after != sortedRanges.end() && after->start < fde.end) return true;
  return after != sortedRanges.begin() && std::prev(after)->end > fde.start;
}

struct CfiCloser {
  void operator()(Dwarf_CFI* c) const { dwarf_cfi_end(c); }
};
struct ElfCloser {
  void operator()(Elf* e) const { elf_end(e); }
};
struct DwarfCloser {
  void operator()(Dwarf* d) const { dwarf_end(d); }
};

// An object's separate debug file, opened as an ELF file only: libdw's
// opening it as DWARF (dwfl_module_getdwarf) decompresses every debug
// section, which costs libc's tens of ms, and is only worth it when the
// file holds a .debug_frame.
struct SeparateDebugFile {
  Fd fd;
  std::unique_ptr<Elf, ElfCloser> elf;
};

SeparateDebugFile openSeparateDebugFile(Dwfl_Module* module, Elf* mainElf) {
  SeparateDebugFile file;
  void** userdata = nullptr;
  Dwarf_Addr start = 0;
  const char* mainFile = nullptr;
  const char* name =
      dwfl_module_info(module, &userdata, &start, nullptr, nullptr, nullptr, &mainFile, nullptr);
  GElf_Word crc = 0;
  const char* debugLink = dwelf_elf_gnu_debuglink(mainElf, &crc);
  char* foundPath = nullptr;
  file.fd = Fd(dwfl_standard_find_debuginfo(module, userdata, name, start, mainFile, debugLink, crc,
                                            &foundPath));
  std::free(foundPath);
  if (file.fd) file.elf.reset(elf_begin(file.fd.get(), ELF_C_READ_MMAP, nullptr));
  return file;
}

}  // namespace

Result<std::vector<CfiRow>> compileCfi(const std::string& path) {
  OfflineDwfl dwfl = beginOfflineDwfl();
  if (!dwfl) return makeError(std::string("elfutils: ") + dwfl_errmsg(-1));
  dwfl_report_begin(dwfl.get());
  Dwfl_Module* module = dwfl_report_offline(dwfl.get(), "", path.c_str(), -1);
  dwfl_report_end(dwfl.get(), nullptr, nullptr);
  GElf_Addr bias = 0;
  Elf* elf = module ? dwfl_module_getelf(module, &bias) : nullptr;
  if (!elf) return makeError(path + ": not an ELF object: " + dwfl_errmsg(-1));

  // Addresses below are each section's own: the file's virtual addresses
  // (a separate debug file keeps its object's layout), never dwfl's bias.
  std::vector<Span> spans;
  std::vector<FdeRange> ehFdes = fdeRanges(elf, ".eh_frame");
  if (!ehFdes.empty()) {
    std::unique_ptr<Dwarf_CFI, CfiCloser> ehCfi(dwarf_getcfi_elf(elf));
    if (ehCfi) addSectionSpans(ehCfi.get(), ehFdes, spans);
  }

  // .debug_frame: the object's own, else its separate debug file's.
  std::vector<FdeRange> debugFdes = fdeRanges(elf, ".debug_frame");
  Elf* debugElf = elf;
  SeparateDebugFile separate;
  if (debugFdes.empty()) {
    separate = openSeparateDebugFile(module, elf);
    if (separate.elf) {
      debugFdes = fdeRanges(separate.elf.get(), ".debug_frame");
      debugElf = separate.elf.get();
    }
  }
  std::sort(ehFdes.begin(), ehFdes.end(),
            [](const FdeRange& a, const FdeRange& b) { return a.start < b.start; });
  std::erase_if(debugFdes, [&](const FdeRange& f) { return overlapsAny(f, ehFdes); });
  if (!debugFdes.empty()) {
    std::unique_ptr<Dwarf, DwarfCloser> dwarf(dwarf_begin_elf(debugElf, DWARF_C_READ, nullptr));
    Dwarf_CFI* debugCfi = dwarf ? dwarf_getcfi(dwarf.get()) : nullptr;  // owned by `dwarf`
    if (debugCfi) addSectionSpans(debugCfi, debugFdes, spans);
  }
  return rowsOf(spans);
}

}  // namespace dtrace::sym
