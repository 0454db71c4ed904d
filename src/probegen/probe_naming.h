// The names a user provider's probe goes by: DTrace's probe name, the
// macros of the generated header, the semaphore symbol, and the file names
// dtrace -h and -G choose when -o is absent.
#pragma once

#include <string>
#include <string_view>

namespace dtrace::probegen {

// The DTrace probe name of a probe declared as `declared`: each "__"
// becomes "-" ("query__start" is "query-start").
std::string dtraceProbeName(std::string_view declared);

// PROVIDER_PROBE, upper case, each "__" of the probe's name becoming "_":
// provider myapp, probe query__start give MYAPP_QUERY_START.
std::string probeMacroName(std::string_view provider, std::string_view probe);

// probeMacroName() + "_ENABLED".
std::string enabledMacroName(std::string_view provider, std::string_view probe);

// The is-enabled counter the kernel raises while the probe is traced:
// provider_probe_semaphore, with the probe's name as declared.
std::string semaphoreName(std::string_view provider, std::string_view probe);

// The header's include guard, from the name of the file it is written to
// as illumos forms it: "_" and the base name in upper case, every
// character that cannot be in an identifier made '_' (probes.h: _PROBES_H).
std::string includeGuard(std::string_view outputPath);

// The output file dtrace writes for `script` without -o: the script's base
// name with its ".d" replaced by `suffix` (".h" or ".o"), in the current
// directory. Empty when the script's name does not end in ".d".
std::string defaultOutputName(std::string_view script, std::string_view suffix);

}  // namespace dtrace::probegen
