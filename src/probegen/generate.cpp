#include "probegen/generate.h"

#include <elf.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>

#include "parse/parser.h"
#include "probegen/header_writer.h"
#include "probegen/input_objects.h"
#include "probegen/object_writer.h"
#include "probegen/output_file.h"
#include "probegen/probe_naming.h"
#include "sema/checker.h"

namespace dtrace::probegen {

namespace {

// dtrace's words for a compile error, as the tracing path reports them.
std::string compileError(const ProgramText& program, const Diagnostic& d, bool errtags,
                         const std::string& file = "") {
  std::string out = program.isScript ? "failed to compile script " + program.name + ": "
                                     : "invalid probe specifier " + program.name + ": ";
  if (errtags && !d.tag.empty()) out += "[" + d.tag + "] ";
  if (!file.empty() && file != program.name) {
    out += "\"" + file + "\", line " + std::to_string(d.loc.line) + ": ";
  } else if (program.isScript && d.loc.line != 0) {
    out += "line " + std::to_string(d.loc.line) + ": ";
  }
  return out + d.message;
}

// A program with nothing but declarations and pragmas is D_EMPTY, as in
// the tracing path; a provider definition is something.
bool hasContent(const ast::Program& program) {
  return std::any_of(program.items.begin(), program.items.end(), [](const auto& item) {
    return !std::holds_alternative<ast::Declaration>(item) &&
           !std::holds_alternative<ast::Pragma>(item);
  });
}

// The header, written as illumos words its failures.
Result<void> writeHeaderFile(const std::string& path, const std::string& text) {
  return writeOutputFile(
      path, {"failed to open header file '" + path + "'", "failed to create header file " + path},
      [&](int fd) -> Result<void> {
        for (size_t done = 0; done < text.size();) {
          const ssize_t n = write(fd, text.data() + done, text.size() - done);
          if (n < 0 && errno == EINTR) continue;
          if (n <= 0) return makeError(std::strerror(errno));
          done += static_cast<size_t>(n);
        }
        return {};
      });
}

// Without -32/-64, dtrace takes the data model from the objects, and
// refuses a set that has both.
bool mixesClasses(const std::vector<InputObject>& inputs, int dataModel) {
  return dataModel == 0 && std::any_of(inputs.begin(), inputs.end(), [&](const auto& input) {
           return input.target.elfClass != inputs.front().target.elfClass;
         });
}

// The ELF target of the output: the objects', which must agree with each
// other and with -32/-64, or the data model's on x86.
Result<ElfTarget> outputTarget(const std::vector<InputObject>& inputs, int dataModel,
                               const std::string& linkError) {
  ElfTarget target;
  if (dataModel == 32) target = {ELFCLASS32, ELFDATA2LSB, EM_386};
  if (dataModel == 64) target = {ELFCLASS64, ELFDATA2LSB, EM_X86_64};
  if (inputs.empty()) {
    if (target.elfClass == 0) target = {ELFCLASS64, ELFDATA2LSB, EM_X86_64};
    return target;
  }
  const ElfTarget& first = inputs.front().target;
  for (const InputObject& input : inputs) {
    if (dataModel != 0 && input.target.elfClass != target.elfClass) {
      return makeError(linkError + "incorrect ELF class for object file: " + input.path);
    }
    if (input.target.machine != first.machine || input.target.dataEncoding != first.dataEncoding) {
      return makeError(linkError + "incorrect ELF machine type for object file: " + input.path);
    }
  }
  return first;
}

// A probe site of one of these providers that no definition declares:
// the header the object was compiled with is not this program's.
Result<void> checkNotedProbes(const std::vector<InputObject>& inputs,
                              const std::vector<ProviderDefinition>& providers,
                              const std::string& linkError) {
  for (const InputObject& input : inputs) {
    for (const NotedProbe& noted : input.probes) {
      auto provider = std::find_if(providers.begin(), providers.end(),
                                   [&](const auto& p) { return p.name == noted.provider; });
      if (provider == providers.end()) continue;  // another library's probes
      const bool declared =
          std::any_of(provider->probes.begin(), provider->probes.end(),
                      [&](const auto& probe) { return probe.name == noted.name; });
      if (!declared) {
        return makeError(linkError + "no such probe " + dtraceProbeName(noted.name) + " in " +
                         input.path);
      }
    }
  }
  return {};
}

std::string linkErrorPrefix(const std::vector<ProgramText>& programs) {
  if (programs.empty()) return "";
  const ProgramText& p = programs.front();
  return "failed to link " + std::string(p.isScript ? "script " : "description ") + p.name + ": ";
}

}  // namespace

Result<std::vector<ProviderDefinition>> compileProviders(const std::vector<ProgramText>& programs,
                                                         const GenerateOptions& options) {
  // No kernel types: a header must not depend on the kernel it is built on.
  sema::TypeTable types;
  sema::SymbolTable symbols;
  sema::MacroTable macros;
  sema::Definitions definitions;
  std::vector<ProviderDefinition> providers;
  for (const ProgramText& program : programs) {
    parse::ParseOptions po;
    po.allowBareProbeSpec = !program.isScript;
    po.isTypeName = [&types](std::string_view name, bool) { return types.isTypeName(name); };
    parse::ParseResult parsed = parse::parseProgram(program.text, po);
    if (!parsed.diags.empty()) {
      return makeError(
          compileError(program, parsed.diags.first(), options.errtags, parsed.errorFile));
    }
    if (!hasContent(parsed.program)) {
      return makeError(compileError(program, {"D_EMPTY", {}, "empty D program translation unit"},
                                    options.errtags));
    }
    Diagnostics diags;
    sema::Checker checker(types, symbols, macros, diags, &definitions);
    if (!checker.checkProviders(parsed.program) ||
        !describeProviders(parsed.program, providers, diags)) {
      return makeError(compileError(program, diags.first(), options.errtags));
    }
  }
  return providers;
}

Result<void> generateHeader(const std::vector<ProgramText>& programs, const std::string& outputPath,
                            const GenerateOptions& options) {
  auto providers = compileProviders(programs, options);
  if (!providers) return providers.error();
  return writeHeaderFile(outputPath, headerText(*providers, outputPath));
}

Result<void> generateObject(const std::vector<ProgramText>& programs, const std::string& outputPath,
                            const std::vector<std::string>& objects, int dataModel,
                            const GenerateOptions& options) {
  // As dtrace does, a mix of 32- and 64-bit objects is refused before
  // anything is compiled; an object that cannot be read, when linking.
  const std::string linkError = linkErrorPrefix(programs);
  std::vector<InputObject> inputs;
  std::optional<Error> unreadable;
  for (const std::string& path : objects) {
    auto input = readInputObject(path);
    if (input) {
      inputs.push_back(std::move(*input));
    } else if (!unreadable) {
      unreadable = makeError(linkError + input.error().message);
    }
  }
  if (mixesClasses(inputs, dataModel)) return makeError("can't mix 32-bit and 64-bit object files");
  auto providers = compileProviders(programs, options);
  if (!providers) return providers.error();
  if (unreadable) return *unreadable;
  auto target = outputTarget(inputs, dataModel, linkError);
  if (!target) return target.error();
  if (auto r = checkNotedProbes(inputs, *providers, linkError); !r) return r;
  std::string source = programs.empty() ? "" : programs.front().name;
  if (size_t slash = source.rfind('/'); slash != std::string::npos) source.erase(0, slash + 1);
  if (auto r = writeProviderObject(outputPath, *providers, *target, source); !r) {
    return makeError(linkError + r.error().message);
  }
  return {};
}

}  // namespace dtrace::probegen
