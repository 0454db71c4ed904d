#include "types/tracepoint_prototype.h"

#include <bpf/btf.h>

#include <string_view>
#include <unordered_map>

#include "types/kernel_btf.h"

namespace dtrace::types {

namespace {

// Skips typedefs and qualifiers, for sizes and signedness.
const struct btf_type* resolved(const struct btf* btf, uint32_t id) {
  const struct btf_type* t = btf__type_by_id(btf, id);
  while (t && (btf_is_typedef(t) || btf_is_const(t) || btf_is_volatile(t) || btf_is_restrict(t) ||
               btf_is_type_tag(t))) {
    t = btf__type_by_id(btf, t->type);
  }
  return t;
}

// The C name D knows a BTF type by. Function pointers and arrays, which D
// cannot name from a string, read as void *.
std::string typeName(const struct btf* btf, uint32_t id) {
  const struct btf_type* t = btf__type_by_id(btf, id);
  if (!t) return "void";
  const char* name = btf__name_by_offset(btf, t->name_off);
  const std::string own = name ? name : "";
  switch (btf_kind(t)) {
    case BTF_KIND_INT:
    case BTF_KIND_TYPEDEF:
    case BTF_KIND_FLOAT:
      return own;
    case BTF_KIND_STRUCT:
      return own.empty() ? "void" : "struct " + own;
    case BTF_KIND_UNION:
      return own.empty() ? "void" : "union " + own;
    case BTF_KIND_ENUM:
    case BTF_KIND_ENUM64:
      return own.empty() ? "int" : "enum " + own;
    case BTF_KIND_CONST:
      return "const " + typeName(btf, t->type);
    case BTF_KIND_VOLATILE:
    case BTF_KIND_RESTRICT:
    case BTF_KIND_TYPE_TAG:
      return typeName(btf, t->type);
    case BTF_KIND_PTR: {
      const struct btf_type* target = btf__type_by_id(btf, t->type);
      if (!target || btf_is_func_proto(target)) return "void *";
      return typeName(btf, t->type) + " *";
    }
    default:
      return "void *";
  }
}

constexpr std::string_view kTypedefPrefix = "btf_trace_";

// Every btf_trace_ typedef's id by event name, from one pass over the
// types (a lookup by name would scan them all for each event).
const std::unordered_map<std::string, uint32_t>& prototypeIds(const struct btf* btf) {
  static std::unordered_map<std::string, uint32_t> ids;
  static bool built = false;
  if (built) return ids;
  built = true;
  const uint32_t count = btf__type_cnt(btf);
  for (uint32_t id = 1; id < count; id++) {
    const struct btf_type* t = btf__type_by_id(btf, id);
    if (!btf_is_typedef(t)) continue;
    const char* name = btf__name_by_offset(btf, t->name_off);
    if (name && std::string_view(name).starts_with(kTypedefPrefix)) {
      ids.emplace(name + kTypedefPrefix.size(), id);
    }
  }
  return ids;
}

Result<const struct btf_type*> prototypeOf(const std::string& event) {
  auto loaded = KernelBtf::instance().load();
  if (!loaded) return loaded.error();
  const auto& ids = prototypeIds(*loaded);
  auto found = ids.find(event);
  if (found == ids.end()) return makeError("the kernel has no raw tracepoint " + event);
  const struct btf_type* ptr =
      btf__type_by_id(*loaded, btf__type_by_id(*loaded, found->second)->type);
  const struct btf_type* proto =
      ptr && btf_is_ptr(ptr) ? btf__type_by_id(*loaded, ptr->type) : nullptr;
  if (!proto || !btf_is_func_proto(proto) || btf_vlen(proto) < 1) {
    return makeError("unexpected BTF prototype for raw tracepoint " + event);
  }
  return proto;
}

}  // namespace

Result<std::vector<TracepointParam>> tracepointPrototype(const std::string& event) {
  auto proto = prototypeOf(event);
  if (!proto) return proto.error();
  struct btf* btf = *KernelBtf::instance().load();
  std::vector<TracepointParam> params;
  const struct btf_param* p = btf_params(*proto);
  for (int i = 1; i < btf_vlen(*proto); i++) {  // params[0] is the private data pointer
    TracepointParam param;
    param.type = typeName(btf, p[i].type);
    const char* name = btf__name_by_offset(btf, p[i].name_off);
    param.name = name ? name : "";
    if (const struct btf_type* r = resolved(btf, p[i].type)) {
      if (btf_is_int(r)) {
        param.size = r->size;
        param.isSigned = btf_int_encoding(r) & BTF_INT_SIGNED;
      } else if (btf_is_enum(r)) {
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
