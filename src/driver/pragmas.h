// What `#pragma D` lines mean (dt_pragma.c): options set as -x sets them,
// and the depends_on, binding and attributes pragmas, whose arguments are
// checked. The lexer finds the lines (parse::PragmaLine); this says
// whether they hold.
#pragma once

#include <optional>
#include <string_view>

#include "parse/lexer.h"
#include "providers/catalog.h"
#include "util/diag.h"
#include "util/option_table.h"

namespace dtrace::driver {

// `#pragma D option` lines of `source`, applied to `options` as -x applies
// them, before the program is compiled (DTrace sets options while lexing,
// ahead of the rest of the program). The first that fails is the
// D_PRAGMA_OPTSET diagnostic returned.
std::optional<Diagnostic> applyOptionPragmas(std::string_view source, OptionTable& options);

// dt_pragma.c: depends_on, binding and attributes check their arguments;
// the first problem found in `p`, or none.
std::optional<Diagnostic> pragmaProblem(const parse::PragmaLine& p,
                                        const providers::ProbeCatalog& catalog);

}  // namespace dtrace::driver
