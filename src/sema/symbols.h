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
  Caller,       // kernel PC the probe was entered from
  Ucaller,      // user PC of the caller of the current user function
  Stackdepth,   // kernel stack frames above the probe
  Ustackdepth,  // user stack frames
  Cwd,          // string: the current process's working directory
  Root,         // string: the current process's root directory
  Execargs,     // string: the current process's arguments, blank-separated (FreeBSD's)
  Ipl,          // interrupt priority level: always 0 on Linux
  Lgrp,         // locality group: the NUMA node of the current CPU
  Unavailable,  // a DTrace built-in Linux has no counterpart for (zonename, ...)
  Curthread,    // the current thread's struct task_struct *
  Args,         // args[N]: typed probe arguments (an array: see check_builtins.cpp)
  Uregs,        // uregs[R_*]: the thread's saved user registers (an array)
  RegIndex,     // R_PC, R_RAX, ...: uregs[] index constants, value in argIndex
};

// One uregs[] index in DTrace's x86-64 numbering (illumos' regs.d: the
// 32-bit names first, R_GS = 0 .. R_SS = 18, then the 64-bit registers from
// R_R15 = 19), and the struct pt_regs member where Linux saves that user
// register; null when Linux keeps no such value for a user thread.
struct UserRegister {
  int index;
  const char* ptRegsMember;
};
const UserRegister* userRegister(int64_t index);  // null when out of range
// The value of a register constant (R_PC, R_RAX, ...), or -1.
int registerConstant(std::string_view name);

struct Variable {
  // Associative arrays and thread-locals are DTrace's dynamic variables:
  // each lives in a hash map (keyed by its tuple, or by the thread).
  // TranslatorInput: a translator's input (T in `translator x < y *T >`).
  enum class Kind {
    Builtin,
    Global,
    ClauseLocal,
    Aggregation,
    Associative,
    ThreadLocal,
    TranslatorInput
  };
  Kind kind = Kind::Global;
  std::string name;
  const Type* type = nullptr;  // null until the first assignment decides it
  SourceLoc loc;               // where it was declared or first assigned
  bool declared = false;       // by a declaration rather than by assignment
  Builtin builtin = Builtin::None;
  int argIndex = 0;
  uint32_t offset = 0;  // Global: in the globals map value; ClauseLocal: in scratch
  bool isDynamic() const { return kind == Kind::Associative || kind == Kind::ThreadLocal; }
  // Indexed by a tuple: an associative array, global (a[k]) or thread-local
  // (self->a[k], keyed by the thread and the tuple).
  bool isKeyed() const { return kind == Kind::Associative || threadLocalArray; }
  bool threadLocalArray = false;
  uint32_t dynamicId = 0;  // Associative, ThreadLocal: index of its map
  // Aggregation
  uint32_t aggregationId = 0;
  ir::AggFunc aggFunc = ir::AggFunc::Count;
  ir::AggParams aggParams;  // lquantize, llquantize
  std::string aggFuncName;
  std::vector<const Type*> keyTypes;  // Aggregation, and keyed ones
  bool aggDefined = false;
};

class SymbolTable {
 public:
  // The built-in variable `name` (arg0..arg9, pid, execname, ...), made on
  // first use with its type from `types`; null when there is none. The
  // arrays args and uregs are built-ins too, so that no script redefines them.
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
  std::deque<Variable>& threadLocals() { return threadLocals_; }
  std::deque<Variable>& aggregations() { return aggregations_; }

 private:
  std::deque<Variable> builtins_, globals_, clauseLocals_, aggregations_, threadLocals_;
  std::map<std::string, Variable*, std::less<>> globalIndex_, localIndex_, aggIndex_, tlsIndex_;
  std::vector<Variable*> dynamics_;
};

}  // namespace dtrace::sema
