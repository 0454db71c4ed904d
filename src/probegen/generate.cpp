#include "probegen/generate.h"

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
      return makeError(compileError(
          program, {"D_EMPTY", {parsed.endLine, 0}, "empty D program translation unit"},
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
  auto target = outputTarget(inputs, dataModel);
  if (!target) return makeError(linkError + target.error().message);
  if (auto r = checkNotedProbes(inputs, *providers); !r) {
    return makeError(linkError + r.error().message);
  }
  std::string source = programs.empty() ? "" : programs.front().name;
  if (size_t slash = source.rfind('/'); slash != std::string::npos) source.erase(0, slash + 1);
  if (auto r = writeProviderObject(outputPath, *providers, *target, source); !r) {
    return makeError(linkError + r.error().message);
  }
  return {};
}

}  // namespace dtrace::probegen
