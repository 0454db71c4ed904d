// -v: the stability report dtrace(1M)'s exec_prog() prints for each
// program: the minimum attributes of its probe descriptions and of its
// statements (dtrace_program_info), and with -e each description's probe
// information (info_stmt, print_probe_info).
#pragma once

#include <string>
#include <vector>

#include "parse/ast.h"
#include "providers/probe.h"
#include "providers/provider.h"

namespace dtrace::driver {

// One description of a clause and the probes it matched.
struct ReportedDescription {
  ast::ProbeSpec spec;  // macros expanded
  std::vector<const providers::Probe*> probes;
};

struct ReportedClause {
  const ast::ProbeClause* clause;
  std::vector<ReportedDescription> descriptions;
};

// What dtrace_probe_info() reports for a description: its attributes and
// its arguments' (DTrace's default Unstable ones when no probe stands for
// them), and the probe whose argument types it shows (or null).
struct DescriptionInfo {
  providers::Attribute description;
  providers::Attribute arguments;
  const providers::Probe* probe = nullptr;
};
DescriptionInfo describeDescription(const ast::ProbeSpec& spec,
                                    const std::vector<const providers::Probe*>& matched);

// The report for one program ("script" or "description" `name`); with
// `compileOnly` (-e), each description's probe information follows.
std::string formatStabilityReport(const std::string& kind, const std::string& name,
                                  const std::vector<ReportedClause>& clauses, bool compileOnly);

}  // namespace dtrace::driver
