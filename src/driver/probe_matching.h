// Which probes a clause's description names: the one matching function
// that compiling and dtrace -l share.
#pragma once

#include <string>
#include <vector>

#include "parse/ast.h"
#include "providers/catalog.h"
#include "util/result.h"

namespace dtrace::driver {

// "provider:module:function:name", as messages name a description or probe.
std::string fullDescription(const ast::ProbeSpec& s);
std::string fullName(const providers::Probe& p);

// Whether a description (macros expanded) names the probe; an empty field
// matches any.
bool specMatches(const ast::ProbeSpec& s, const providers::Probe& p);

// A description that is a number names a probe by its ID (as dtrace -l
// lists them).
bool namesProbeId(const ast::ProbeSpec& s);

// The probe a numeric description names; an ID no probe has fails with
// D_PDESC_INVAL ("invalid probe identifier 9999: Unknown probe identifier").
Result<const providers::Probe*> probeById(providers::ProbeCatalog& catalog,
                                          const ast::ProbeSpec& s);

struct DescriptionMatch {
  ast::ProbeSpec spec;  // macros expanded; a probe ID's fields filled in
  std::vector<const providers::Probe*> probes;
};

// The probes a description names: by ID, or by matching its fields
// (ProbeCatalog::match, whose error, with its tag, is returned). Matching
// nothing is no error here: compiling and listing report it differently.
Result<DescriptionMatch> matchDescription(providers::ProbeCatalog& catalog, ast::ProbeSpec spec);

}  // namespace dtrace::driver
