// The `.dtrace_providers` section: what `dtrace -G` records about a
// program's user providers so that a tracer can give args[] of their USDT
// probes a type. The probes themselves are the program's stapsdt notes
// (provider, probe name as declared, argument locations and sizes); this
// section adds the argument types of the provider definition, native and
// translated.
//
// Format (version 1). The section holds NUL-terminated ASCII records, so
// `readelf -p .dtrace_providers` shows one record per line:
//
//   dtrace-providers 1          starts a block; 1 is the format version
//   provider NAME               a provider; the probe records after it are its
//   probe NAME NARGS NXARGS     a probe (NAME as declared: "query__start"),
//                               followed by NARGS arg and NXARGS xarg records
//   arg SIZE TYPE               a native argument: what the program passes
//   xarg INDEX SIZE TYPE        a translated argument: what args[i] holds,
//                               computed from native argument INDEX
//
// SIZE is the argument's size in bytes, negative when it is a signed
// integer, as a stapsdt note's argument string gives it (-4 for int, 8 for
// char *). TYPE is the rest of the record: the type as D names it ("int",
// "char *", "string", "struct foo *"). Fields are separated by one space.
// A probe whose definition translates nothing has xarg records equal to
// its arg records, mapped one to one.
//
// The linker concatenates the sections of every object it links into a
// program, so a section may hold several blocks, with empty records
// (alignment padding) between them. Decoding merges providers by name
// across blocks; a probe already seen keeps its first definition.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.h"

namespace dtrace::sym {

inline constexpr std::string_view kProviderSectionName = ".dtrace_providers";

struct ProviderArgType {
  std::string type;  // as D names it: "int", "char *", "string"
  int32_t size = 0;  // bytes; negative for a signed integer
  bool operator==(const ProviderArgType&) const = default;
};

struct ProviderProbe {
  std::string name;                             // as declared: "query__start"
  std::vector<ProviderArgType> nativeArgs;      // the note's arguments, in order
  std::vector<ProviderArgType> translatedArgs;  // args[0], args[1], ...
  std::vector<uint32_t> argMapping;  // translatedArgs[i] comes from nativeArgs[argMapping[i]]
  bool operator==(const ProviderProbe&) const = default;
};

struct ProviderDefinition {
  std::string name;
  std::vector<ProviderProbe> probes;
  bool operator==(const ProviderDefinition&) const = default;
};

// One block holding `providers`. Names and types must not hold a NUL or a
// newline; names no space (D identifiers never do).
std::string encodeProviderSection(const std::vector<ProviderDefinition>& providers);

// The providers of a whole section (one block or several). Fails with a
// message naming the record that is malformed or the version it does not
// know.
Result<std::vector<ProviderDefinition>> decodeProviderSection(std::string_view bytes);

// The decoded `.dtrace_providers` section of the ELF file at `path`: an
// empty list when the file has no such section, an error when the file
// cannot be read as ELF or the section is malformed.
Result<std::vector<ProviderDefinition>> readProviderSection(const std::string& path);

}  // namespace dtrace::sym
