#include "generate_mode.h"

#include <cstdio>
#include <string>

#include "probegen/generate.h"
#include "probegen/probe_naming.h"

namespace dtrace {

namespace {

constexpr int kExitError = 1;
constexpr int kExitUsage = 2;

int fail(const std::string& message, int status = kExitError) {
  std::fprintf(stderr, "dtrace: %s\n", message.c_str());
  return status;
}

probegen::ProgramText programOf(const driver::SourceUnit& unit) {
  return {unit.name, unit.text, unit.isScript};
}

int header(const cli::CommandLine& cl, const std::vector<driver::SourceUnit>& units,
           const probegen::GenerateOptions& options) {
  std::string output = cl.outputFile;
  if (output.empty()) {
    if (units.size() > 1) {
      return fail("-h requires an output file if multiple scripts are specified", kExitUsage);
    }
    if (units.front().isScript) output = probegen::defaultOutputName(units.front().name, ".h");
    if (output.empty()) {
      return fail("-h requires an output file if no scripts are specified", kExitUsage);
    }
  }
  std::vector<probegen::ProgramText> programs;
  for (const auto& unit : units) programs.push_back(programOf(unit));
  if (auto r = probegen::generateHeader(programs, output, options); !r) {
    return fail(r.error().message);
  }
  return 0;
}

// With -o, one object for every program; without, one per program, named
// after its script (x.d gives x.o), or d.out.
int object(const cli::CommandLine& cl, const std::vector<driver::SourceUnit>& units,
           const probegen::GenerateOptions& options) {
  std::vector<std::vector<probegen::ProgramText>> groups;
  std::vector<std::string> outputs;
  if (!cl.outputFile.empty()) {
    groups.emplace_back();
    for (const auto& unit : units) groups.back().push_back(programOf(unit));
    outputs.push_back(cl.outputFile);
  } else {
    for (size_t i = 0; i < units.size(); i++) {
      std::string output =
          units[i].isScript ? probegen::defaultOutputName(units[i].name, ".o") : "";
      if (output.empty()) output = units.size() > 1 ? "d.out." + std::to_string(i) : "d.out";
      groups.push_back({programOf(units[i])});
      outputs.push_back(output);
    }
  }
  for (size_t i = 0; i < groups.size(); i++) {
    auto r = probegen::generateObject(groups[i], outputs[i], cl.macroArgs, cl.dataModel, options);
    if (!r) return fail(r.error().message);
  }
  return 0;
}

}  // namespace

int runProbeGeneration(const cli::CommandLine& cl, const std::vector<driver::SourceUnit>& units,
                       const OptionTable& options) {
  const char* mode = cl.generateHeader ? "-h" : "-G";
  if (units.empty()) {
    return fail(std::string(mode) + " requires one or more scripts or enabling options",
                kExitUsage);
  }
  probegen::GenerateOptions generateOptions;
  generateOptions.errtags = options.flag("errtags");
  return cl.generateHeader ? header(cl, units, generateOptions)
                           : object(cl, units, generateOptions);
}

}  // namespace dtrace
