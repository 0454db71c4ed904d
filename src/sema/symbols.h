// What names in a D program refer to: built-in variables, global and
// clause-local variables, and aggregations, with the storage the code
// generator gives them.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ir/program.h"
#include "sema/types.h"
#include "util/diag.h"

namespace dtrace::sema {

enum class Builtin {
  None,
  Arg,  // arg0..arg9: Variable::argIndex
  Pid,
  Tid,
  Ppid,
  Uid,
  Gid,
  Execname,
  Timestamp,
  Vtimestamp,
  Walltimestamp,
  Cpu,
  Probeprov,
  Probemod,
  Probefunc,
  Probename,
  Errno,
  Epid,
  Id,
};

struct Variable {
  // Associative arrays and thread-locals are DTrace's dynamic variables:
  // each lives in a hash map (keyed by its tuple, or by the thread).
  enum class Kind { Builtin, Global, ClauseLocal, Aggregation, Associative, ThreadLocal };
  Kind kind = Kind::Global;
  std::string name;
  const Type* type = nullptr;  // null until the first assignment decides it
  SourceLoc loc;               // where it was declared or first assigned
  bool declared = false;       // by a declaration rather than by assignment
  Builtin builtin = Builtin::None;
  int argIndex = 0;
  uint32_t offset = 0;  // Global: in the globals map value; ClauseLocal: in scratch
  bool isDynamic() const { return kind == Kind::Associative || kind == Kind::ThreadLocal; }
  uint32_t dynamicId = 0;  // Associative, ThreadLocal: index of its map
  // Aggregation
  uint32_t aggregationId = 0;
  ir::AggFunc aggFunc = ir::AggFunc::Count;
  std::string aggFuncName;
  std::vector<const Type*> keyTypes;  // Aggregation, Associative
  bool aggDefined = false;
};

class SymbolTable {
 public:
  // The built-in variable `name` (arg0..arg9, pid, execname, ...), made on
  // first use with its type from `types`; null when there is none.
  const Variable* findBuiltin(std::string_view name, TypeTable& types);
  Variable* findGlobal(std::string_view name);
  Variable* addGlobal(const std::string& name, SourceLoc loc);
  Variable* findClauseLocal(std::string_view name);
  Variable* addClauseLocal(const std::string& name, SourceLoc loc);
  Variable* findAggregation(std::string_view name);
  Variable* addAggregation(const std::string& name, SourceLoc loc);
  Variable* findThreadLocal(std::string_view name);
  Variable* addThreadLocal(const std::string& name, SourceLoc loc);
  // An associative array lives among the globals (one name space).
  Variable* addAssociative(const std::string& name, SourceLoc loc);
  // Dynamic variables (associative arrays, thread-locals) in dynamicId order.
  const std::vector<Variable*>& dynamics() const { return dynamics_; }

  std::deque<Variable>& globals() { return globals_; }  // scalars and associative arrays
  std::deque<Variable>& clauseLocals() { return clauseLocals_; }
  std::deque<Variable>& aggregations() { return aggregations_; }

 private:
  std::deque<Variable> builtins_, globals_, clauseLocals_, aggregations_, threadLocals_;
  std::map<std::string, Variable*, std::less<>> globalIndex_, localIndex_, aggIndex_, tlsIndex_;
  std::vector<Variable*> dynamics_;
};

}  // namespace dtrace::sema
