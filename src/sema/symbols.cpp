#include "sema/symbols.h"

#include <deque>
#include <iterator>

namespace dtrace::sema {

namespace {

constexpr uint32_t kCommLen = 16;  // TASK_COMM_LEN: execname never exceeds it

struct BuiltinSpec {
  const char* name;
  Builtin builtin;
  const char* typeName;  // "string" and "string16" are strings
};

constexpr BuiltinSpec kBuiltins[] = {
    {"pid", Builtin::Pid, "pid_t"},
    {"tid", Builtin::Tid, "id_t"},
    {"ppid", Builtin::Ppid, "pid_t"},
    {"uid", Builtin::Uid, "uid_t"},
    {"gid", Builtin::Gid, "gid_t"},
    {"execname", Builtin::Execname, "string16"},
    {"timestamp", Builtin::Timestamp, "uint64_t"},
    {"vtimestamp", Builtin::Vtimestamp, "uint64_t"},
    {"walltimestamp", Builtin::Walltimestamp, "int64_t"},
    {"cpu", Builtin::Cpu, "processorid_t"},
    {"probeprov", Builtin::Probeprov, "string"},
    {"probemod", Builtin::Probemod, "string"},
    {"probefunc", Builtin::Probefunc, "string"},
    {"probename", Builtin::Probename, "string"},
    {"errno", Builtin::Errno, "int"},
    {"epid", Builtin::Epid, "uint_t"},
    {"id", Builtin::Id, "uint_t"},
    {"caller", Builtin::Caller, "uintptr_t"},
    {"ucaller", Builtin::Ucaller, "uint64_t"},
    {"stackdepth", Builtin::Stackdepth, "uint32_t"},
    {"ustackdepth", Builtin::Ustackdepth, "uint32_t"},
    {"cwd", Builtin::Cwd, "string"},
    {"root", Builtin::Root, "string"},
    {"execargs", Builtin::Execargs, "string"},
    {"ipl", Builtin::Ipl, "uint_t"},
    {"lgrp", Builtin::Lgrp, "int"},
    // DTrace built-ins with no Linux counterpart: any use is an error.
    {"projid", Builtin::Unavailable, "void"},
    {"taskid", Builtin::Unavailable, "void"},
    {"zonename", Builtin::Unavailable, "void"},
    {"fds", Builtin::Unavailable, "void"},
    {"curthread", Builtin::Curthread, "struct task_struct *"},
    // Arrays: indexed, they take their type from check_builtins.cpp; alone
    // they are void, which every use refuses.
    {"args", Builtin::Args, "void"},
    {"uregs", Builtin::Uregs, "void"},
};

// uregs[] by index. Linux saves no segment selectors, trap number or error
// code in a user thread's pt_regs, nor (there) its FS and GS bases.
constexpr UserRegister kUserRegisters[] = {
    {0, nullptr},  {1, nullptr},  {2, nullptr},  {3, nullptr},  // GS FS ES DS
    {4, "di"},     {5, "si"},     {6, "bp"},     {7, "sp"},     // EDI ESI EBP ESP
    {8, "bx"},     {9, "dx"},     {10, "cx"},    {11, "ax"},    // EBX EDX ECX EAX
    {12, nullptr}, {13, nullptr}, {14, "ip"},    {15, "cs"},    // TRAPNO ERR EIP CS
    {16, "flags"}, {17, "sp"},    {18, "ss"},                   // EFL UESP SS
    {19, "r15"},   {20, "r14"},   {21, "r13"},   {22, "r12"},   {23, "r11"}, {24, "r10"},
    {25, "r9"},    {26, "r8"},    {27, "di"},    {28, "si"},    {29, "bp"},  {30, "bx"},
    {31, "dx"},    {32, "cx"},    {33, "ax"},    {34, nullptr},  // ... TRAPNO
    {35, nullptr}, {36, "ip"},    {37, "cs"},    {38, "flags"},  // ERR RIP CS RFL
    {39, "sp"},    {40, "ss"},    {41, nullptr}, {42, nullptr},  // RSP SS FS GS
    {43, nullptr}, {44, nullptr}, {45, nullptr}, {46, nullptr},  // ES DS FSBASE GSBASE
};

struct RegisterName {
  const char* name;
  int index;
};

// The constants of illumos' regs.d for amd64, and R_FP (Oracle Linux's
// alias for the frame pointer).
constexpr RegisterName kRegisterNames[] = {
    {"R_GS", 0},      {"R_FS", 1},   {"R_ES", 2},   {"R_DS", 3},   {"R_EDI", 4},  {"R_ESI", 5},
    {"R_EBP", 6},     {"R_ESP", 7},  {"R_EBX", 8},  {"R_EDX", 9},  {"R_ECX", 10}, {"R_EAX", 11},
    {"R_TRAPNO", 12}, {"R_ERR", 13}, {"R_EIP", 14}, {"R_CS", 15},  {"R_EFL", 16}, {"R_UESP", 17},
    {"R_SS", 18},     {"R_PC", 14},  {"R_SP", 17},  {"R_PS", 16},  {"R_R0", 11},  {"R_R1", 8},
    {"R_FP", 6},      {"R_RSP", 39}, {"R_RFL", 38}, {"R_RIP", 36}, {"R_RAX", 33}, {"R_RCX", 32},
    {"R_RDX", 31},    {"R_RBX", 30}, {"R_RBP", 29}, {"R_RSI", 28}, {"R_RDI", 27}, {"R_R8", 26},
    {"R_R9", 25},     {"R_R10", 24}, {"R_R11", 23}, {"R_R12", 22}, {"R_R13", 21}, {"R_R14", 20},
    {"R_R15", 19},
};

Variable* find(std::map<std::string, Variable*, std::less<>>& index, std::string_view name) {
  auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

Variable* add(std::deque<Variable>& list, std::map<std::string, Variable*, std::less<>>& index,
              Variable::Kind kind, const std::string& name, SourceLoc loc) {
  Variable& v = list.emplace_back();
  v.kind = kind;
  v.name = name;
  v.loc = loc;
  return index[name] = &v;
}

const Variable* addBuiltin(std::deque<Variable>& made, std::string_view name, const Type* type,
                           Builtin builtin, int argIndex = 0) {
  Variable& v = made.emplace_back();
  v.kind = Variable::Kind::Builtin;
  v.name = std::string(name);
  v.type = type;
  v.declared = true;
  v.builtin = builtin;
  v.argIndex = argIndex;
  return &v;
}

}  // namespace

const UserRegister* userRegister(int64_t index) {
  if (index < 0 || index >= static_cast<int64_t>(std::size(kUserRegisters))) return nullptr;
  return &kUserRegisters[index];
}

int registerConstant(std::string_view name) {
  for (const RegisterName& r : kRegisterNames) {
    if (name == r.name) return r.index;
  }
  return -1;
}

const Variable* SymbolTable::findBuiltin(std::string_view name, TypeTable& types) {
  std::deque<Variable>& made = builtins_;
  for (auto& v : made) {
    if (v.name == name) return &v;
  }
  if (name.size() == 4 && name.starts_with("arg") && name[3] >= '0' && name[3] <= '9') {
    return addBuiltin(made, name, types.lookup("int64_t"), Builtin::Arg, name[3] - '0');
  }
  if (int reg = registerConstant(name); reg >= 0) {
    return addBuiltin(made, name, types.intType(), Builtin::RegIndex, reg);
  }
  for (const auto& spec : kBuiltins) {
    if (name != spec.name) continue;
    std::string_view typeName = spec.typeName;
    const Type* type = typeName == "string16" ? types.boundedString(kCommLen)
                       : typeName == "void"   ? types.voidType()
                       : typeName == "string" ? types.stringType()
                                              : types.lookup(typeName);
    // A pointer to a kernel type ("struct task_struct *").
    if (typeName.ends_with(" *")) {
      const Type* target = types.lookup(typeName.substr(0, typeName.size() - 2));
      type = target ? types.pointerTo(target) : nullptr;
    }
    return addBuiltin(made, name, type, spec.builtin);
  }
  return nullptr;
}

Variable* SymbolTable::findGlobal(std::string_view name) { return find(globalIndex_, name); }
Variable* SymbolTable::addGlobal(const std::string& name, SourceLoc loc) {
  return add(globals_, globalIndex_, Variable::Kind::Global, name, loc);
}
Variable* SymbolTable::findClauseLocal(std::string_view name) { return find(localIndex_, name); }
Variable* SymbolTable::addClauseLocal(const std::string& name, SourceLoc loc) {
  return add(clauseLocals_, localIndex_, Variable::Kind::ClauseLocal, name, loc);
}
Variable* SymbolTable::findThreadLocal(std::string_view name) { return find(tlsIndex_, name); }
Variable* SymbolTable::addThreadLocal(const std::string& name, SourceLoc loc) {
  Variable* v = add(threadLocals_, tlsIndex_, Variable::Kind::ThreadLocal, name, loc);
  v->dynamicId = static_cast<uint32_t>(dynamics_.size());
  dynamics_.push_back(v);
  return v;
}
Variable* SymbolTable::addAssociative(const std::string& name, SourceLoc loc) {
  Variable* v = add(globals_, globalIndex_, Variable::Kind::Associative, name, loc);
  v->dynamicId = static_cast<uint32_t>(dynamics_.size());
  dynamics_.push_back(v);
  return v;
}
Variable* SymbolTable::findAggregation(std::string_view name) { return find(aggIndex_, name); }
Variable* SymbolTable::addAggregation(const std::string& name, SourceLoc loc) {
  Variable* v = add(aggregations_, aggIndex_, Variable::Kind::Aggregation, name, loc);
  v->aggregationId = static_cast<uint32_t>(aggregations_.size() - 1);
  return v;
}

}  // namespace dtrace::sema
