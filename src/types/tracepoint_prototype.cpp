#include "types/tracepoint_prototype.h"

#include <string_view>
#include <unordered_map>

#include "types/kernel_btf.h"

namespace dtrace::types {

using bpf::Btf;
using bpf::BtfKind;
using bpf::BtfType;

namespace {

// Skips typedefs and qualifiers, for sizes and signedness.
std::optional<BtfType> resolved(const Btf& btf, uint32_t id) {
  std::optional<BtfType> t = btf.type(id);
  while (t && (t->kind == BtfKind::Typedef || t->isQualifier())) t = btf.type(t->type);
  return t;
}

// The C name D knows a BTF type by. Function pointers and arrays, which D
// cannot name from a string, read as void *.
std::string typeName(const Btf& btf, uint32_t id) {
  const std::optional<BtfType> t = btf.type(id);
  if (!t) return "void";
  const std::string own(t->name);
  switch (t->kind) {
    case BtfKind::Int:
    case BtfKind::Typedef:
    case BtfKind::Float:
      return own;
    case BtfKind::Struct:
      return own.empty() ? "void" : "struct " + own;
    case BtfKind::Union:
      return own.empty() ? "void" : "union " + own;
    case BtfKind::Enum:
    case BtfKind::Enum64:
      return own.empty() ? "int" : "enum " + own;
    case BtfKind::Const:
      return "const " + typeName(btf, t->type);
    case BtfKind::Volatile:
    case BtfKind::Restrict:
    case BtfKind::TypeTag:
      return typeName(btf, t->type);
    case BtfKind::Ptr: {
      const std::optional<BtfType> target = btf.type(t->type);
      if (!target || target->kind == BtfKind::FuncProto) return "void *";
      return typeName(btf, t->type) + " *";
    }
    default:
      return "void *";
  }
}

constexpr std::string_view kTypedefPrefix = "btf_trace_";

// Every btf_trace_ typedef's id by event name, from one pass over the
// types (a lookup by name would scan them all for each event).
const std::unordered_map<std::string, uint32_t>& prototypeIds(const Btf& btf) {
  static std::unordered_map<std::string, uint32_t> ids;
  static bool built = false;
  if (built) return ids;
  built = true;
  const uint32_t count = btf.typeCount();
  for (uint32_t id = 1; id < count; id++) {
    const std::optional<BtfType> t = btf.type(id);
    if (!t || t->kind != BtfKind::Typedef) continue;
    if (t->name.starts_with(kTypedefPrefix)) {
      ids.emplace(t->name.substr(kTypedefPrefix.size()), id);
    }
  }
  return ids;
}

Result<BtfType> prototypeOf(const std::string& event) {
  auto loaded = KernelBtf::instance().load();
  if (!loaded) return loaded.error();
  const Btf& btf = **loaded;
  const auto& ids = prototypeIds(btf);
  auto found = ids.find(event);
  if (found == ids.end()) return makeError("the kernel has no raw tracepoint " + event);
  const std::optional<BtfType> ptr = btf.type(btf.type(found->second)->type);
  const std::optional<BtfType> proto =
      ptr && ptr->kind == BtfKind::Ptr ? btf.type(ptr->type) : std::nullopt;
  if (!proto || proto->kind != BtfKind::FuncProto || proto->vlen < 1) {
    return makeError("unexpected BTF prototype for raw tracepoint " + event);
  }
  return *proto;
}

}  // namespace

Result<std::vector<TracepointParam>> tracepointPrototype(const std::string& event) {
  auto proto = prototypeOf(event);
  if (!proto) return proto.error();
  const Btf& btf = **KernelBtf::instance().load();
  std::vector<TracepointParam> params;
  const std::vector<bpf::BtfParam> p = btf.params(*proto);
  for (size_t i = 1; i < p.size(); i++) {  // params[0] is the private data pointer
    TracepointParam param;
    param.type = typeName(btf, p[i].type);
    param.name = p[i].name;
    if (const std::optional<BtfType> r = resolved(btf, p[i].type)) {
      if (r->kind == BtfKind::Int) {
        param.size = r->size;
        param.isSigned = r->isSigned;
      } else if (r->kind == BtfKind::Enum) {
        param.size = r->size;
      }
    }
    params.push_back(std::move(param));
  }
  return params;
}

bool hasTracepointPrototype(const std::string& event) {
  return static_cast<bool>(prototypeOf(event));
}

}  // namespace dtrace::types
