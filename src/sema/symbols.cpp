#include "sema/symbols.h"

#include <deque>

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
};

Variable* find(std::map<std::string, Variable*, std::less<>>& index, std::string_view name) {
  auto it = index.find(name);
  return it == index.end() ? nullptr : it->second;
}

Variable* add(std::deque<Variable>& list, std::map<std::string, Variable*, std::less<>>& index,
              Variable::Kind kind, const std::string& name, SourceLoc loc) {
  list.push_back({.kind = kind, .name = name, .loc = loc});
  return index[name] = &list.back();
}

}  // namespace

const Variable* SymbolTable::findBuiltin(std::string_view name, TypeTable& types) {
  std::deque<Variable>& made = builtins_;
  for (auto& v : made) {
    if (v.name == name) return &v;
  }
  if (name.size() == 4 && name.starts_with("arg") && name[3] >= '0' && name[3] <= '9') {
    made.push_back({.kind = Variable::Kind::Builtin,
                    .name = std::string(name),
                    .type = types.lookup("int64_t"),
                    .declared = true,
                    .builtin = Builtin::Arg,
                    .argIndex = name[3] - '0'});
    return &made.back();
  }
  for (const auto& spec : kBuiltins) {
    if (name != spec.name) continue;
    std::string_view typeName = spec.typeName;
    const Type* type = typeName == "string16" ? types.boundedString(kCommLen)
                                              : types.lookup(typeName);
    made.push_back({.kind = Variable::Kind::Builtin,
                    .name = spec.name,
                    .type = type,
                    .declared = true,
                    .builtin = spec.builtin});
    return &made.back();
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
