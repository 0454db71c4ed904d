// The USDT probes an ELF object carries: systemtap's <sys/sdt.h> notes
// (section .note.stapsdt, owner "stapsdt", type 3), one per probe site.
// A note's descriptor holds three addresses of the object's word size (the
// probe's nop, the link-time address of `_.stapsdt.base`, the semaphore or
// 0), then the provider, the probe's name and its argument specs as
// NUL-terminated strings.
//
// Linked objects (executables, PIE, shared libraries; ELF64 or ELF32): the
// addresses are the object's virtual addresses, moved by as much as
// prelink moved .stapsdt.base from where the note says it was; the file
// offsets come from the PT_LOAD segments (the sections when an address is
// in none).
//
// Relocatable objects (.o): nothing has an address yet. The note's words
// are resolved through its relocations to offsets in sections: `address`
// is the nop's offset in the section named by `section` (".text"),
// `semaphore` the semaphore's offset in `semaphoreSection` (".probes";
// both empty/0 when there is none or it is defined in another object),
// and the file offsets are where those bytes are in the .o. Symbols that
// arguments name resolve to offsets in their own sections, so such
// arguments only describe.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sym/usdt_arguments.h"
#include "util/result.h"

namespace dtrace::sym {

struct UsdtSite {
  std::string provider, name;  // exactly as in the note ("python", "function__entry")
  uint64_t address = 0;        // the object's virtual address of the probe's nop
  uint64_t fileOffset = 0;     // where a uprobe goes; 0 when the address is not in the file
  uint64_t semaphore = 0;      // virtual address, 0 when none
  // The uprobe's ref_ctr_offset: the semaphore's offset in the file as the
  // kernel computes it from the data segment's mapping, 0 when none.
  uint64_t semaphoreFileOffset = 0;
  // Relocatable objects only (else empty): the sections `address` and
  // `semaphore` are offsets in.
  std::string section, semaphoreSection;
  std::vector<UsdtArgument> args;
  // Non-empty when an argument spec was not understood; `args` then holds
  // the arguments before it. The site is listed all the same.
  std::string argError;
};

// Every probe site of the object at `path`, in the notes' order; an
// object without notes gives none. Errors: the file cannot be read or is
// not ELF. A malformed note is skipped.
Result<std::vector<UsdtSite>> readUsdtSites(const std::string& path);

}  // namespace dtrace::sym
