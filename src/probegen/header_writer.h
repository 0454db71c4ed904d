// dtrace -h: the C/C++ header that defines, for every probe of a program's
// user providers, PROVIDER_PROBE(args...) and PROVIDER_PROBE_ENABLED().
//
// A probe site is a nop that a systemtap-style ELF note in .note.stapsdt
// describes (note type 3, owner "stapsdt"): the nop's address, the address
// of _.stapsdt.base (a byte in .stapsdt.base, against which tools correct
// the addresses of a prelinked object), the address of the probe's
// semaphore, then the provider, the probe's name as declared and its
// arguments as "SIZE@OPERAND ..." (SIZE from the declared type, negative
// when signed; OPERAND where the compiler put the argument). gdb, bpftrace,
// systemtap and dtrace's USDT provider read these notes. The semaphore is
// an unsigned short in .probes that the kernel raises while a tracer has
// the probe enabled; dtrace -G defines it.
//
// The header needs no other header, and compiles as C89 and later, C++,
// at any optimization, position-independent or not. With _DTRACE_VERSION
// defined as 0 the macros do nothing.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "probegen/provider_model.h"

namespace dtrace::probegen {

// The header's text; `outputPath` names the include guard.
std::string headerText(const std::vector<ProviderDefinition>& providers,
                       std::string_view outputPath);

}  // namespace dtrace::probegen
