// Splitting a probe description string ("provider:module:function:name")
// into its fields, for descriptions given on the command line (-P, -m, -f,
// -n, -l) rather than parsed from a D program.
#pragma once

#include <string_view>

#include "parse/ast.h"
#include "util/result.h"

namespace dtrace::providers {

enum class DescriptionField { Provider, Module, Function, Name };

// Fields are taken from the right, as dtrace(1M) does: with `last` = Name,
// "read:entry" is function "read" and name "entry", and "BEGIN" is just the
// name. A description with more fields than fit is an error.
Result<ast::ProbeSpec> splitProbeDescription(std::string_view text,
                                             DescriptionField last = DescriptionField::Name);

// "provider:module:function:name" for messages.
std::string describeSpec(const ast::ProbeSpec& spec);

}  // namespace dtrace::providers
