// -S: the variables each clause uses, listed as DTrace's disassembler
// lists a DIF object's variable table (NAME ID KND SCP FLAG TYPE), with
// the offset computeLayout gave each one and the source lines using it.
#pragma once

#include <string>

#include "codegen/layout.h"
#include "parse/ast.h"
#include "sema/symbols.h"

namespace dtrace::driver {

// The table of one clause, laid out by `layout`: a heading line, one line
// per variable the clause reads or writes, and an empty line; empty when
// the clause uses no variable.
std::string formatVariableTable(const ast::ProbeClause& clause, sema::SymbolTable& symbols,
                                const codegen::Layout& layout);

}  // namespace dtrace::driver
