// A program's user providers as the generators need them: for each probe
// argument the type D gives it, the C type the header converts it to, and
// its size and signedness (the stapsdt note's SIZE). Built from a program
// whose provider definitions sema has checked (Checker::checkProviders).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parse/ast.h"
#include "sym/provider_section.h"
#include "util/diag.h"

namespace dtrace::probegen {

// The data model of the program the probes are compiled into: pointers
// and longs are 8 bytes in LP64, 4 in ILP32.
enum class DataModel { LP64, ILP32 };

struct ArgumentType {
  std::string dType;  // as D names it: "char *", "string", "unsigned int"
  std::string cType;  // what the header converts the argument to: "char *"
  uint32_t size = 0;  // bytes in LP64
  bool isSigned = false;
  bool wordSized = false;  // a pointer or a long: 4 bytes in ILP32

  uint32_t sizeIn(DataModel model) const {
    return wordSized && model == DataModel::ILP32 ? 4 : size;
  }
  // The note's SIZE: the byte size, negative when signed.
  int32_t noteSize(DataModel model) const {
    const auto bytes = static_cast<int32_t>(sizeIn(model));
    return isSigned ? -bytes : bytes;
  }
};

struct ProbeDefinition {
  std::string name;  // as declared: "query__start"
  std::vector<ArgumentType> nativeArgs;
  std::vector<ArgumentType> translatedArgs;
  std::vector<uint32_t> argMapping;  // translatedArgs[i] comes from nativeArgs[argMapping[i]]
  SourceLoc loc;
};

struct ProviderDefinition {
  std::string name;
  std::vector<ProbeDefinition> probes;  // each name once, in declaration order
};

// The providers `program` defines, merged by name in order of first
// definition. False after adding a diagnostic when an argument cannot be
// passed by a probe (a struct by value, a float) or a translated argument
// has no native argument to come from.
bool describeProviders(const ast::Program& program, std::vector<ProviderDefinition>& providers,
                       Diagnostics& diags);

// What the `.dtrace_providers` section records for a provider.
sym::ProviderDefinition sectionForm(const ProviderDefinition& provider, DataModel model);

}  // namespace dtrace::probegen
