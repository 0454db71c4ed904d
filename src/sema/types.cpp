#include "sema/types.h"

#include <algorithm>

namespace dtrace::sema {

namespace {
constexpr uint32_t kPointerCountKey = 0xffffffffu;   // derived_ key for "pointer to"
constexpr uint32_t kFunctionCountKey = 0xfffffffeu;  // derived_ key for "function returning"
}  // namespace

TypeTable::TypeTable(uint32_t strsize) : strsize_(strsize) {
  void_ = make({.kind = Type::Kind::Void, .name = "void"});
  char_ = makeInt("char", 1, true, 1);
  schar_ = makeInt("signed char", 1, true, 1);
  uchar_ = makeInt("unsigned char", 1, false, 1);
  short_ = makeInt("short", 2, true, 2);
  ushort_ = makeInt("unsigned short", 2, false, 2);
  int_ = makeInt("int", 4, true, 3);
  uint_ = makeInt("unsigned int", 4, false, 3);
  long_ = makeInt("long", 8, true, 4);
  ulong_ = makeInt("unsigned long", 8, false, 4);
  llong_ = makeInt("long long", 8, true, 5);
  ullong_ = makeInt("unsigned long long", 8, false, 5);
  string_ = make({.kind = Type::Kind::String, .name = "string", .size = strsize + 1});
  aggregation_ = make({.kind = Type::Kind::Aggregation, .name = "aggregation"});
  make({.kind = Type::Kind::Float, .name = "float", .size = 4});
  make({.kind = Type::Kind::Float, .name = "double", .size = 8});
  make({.kind = Type::Kind::Float, .name = "long double", .size = 16, .align = 16});

  // Other spellings of the C keyword types.
  const std::pair<const char*, const Type*> aliases[] = {
      {"signed", int_},
      {"unsigned", uint_},
      {"signed int", int_},
      {"short int", short_},
      {"signed short", short_},
      {"signed short int", short_},
      {"unsigned short int", ushort_},
      {"long int", long_},
      {"signed long", long_},
      {"signed long int", long_},
      {"unsigned long int", ulong_},
      {"long long int", llong_},
      {"signed long long", llong_},
      {"signed long long int", llong_},
      {"unsigned long long int", ullong_},
  };
  for (const auto& [name, type] : aliases) names_.emplace(name, type);

  // D's built-in typedefs (the Guide's "Type and Constant Definitions").
  const std::pair<const char*, const Type*> typedefs[] = {
      {"int8_t", schar_},
      {"int16_t", short_},
      {"int32_t", int_},
      {"int64_t", llong_},
      {"uint8_t", uchar_},
      {"uint16_t", ushort_},
      {"uint32_t", uint_},
      {"uint64_t", ullong_},
      {"intptr_t", long_},
      {"uintptr_t", ulong_},
      {"size_t", ulong_},
      {"ssize_t", long_},
      {"ptrdiff_t", long_},
      {"off_t", long_},
      {"pid_t", int_},
      {"id_t", int_},
      {"uid_t", uint_},
      {"gid_t", uint_},
      {"processorid_t", int_},
      {"hrtime_t", llong_},
      {"time_t", long_},
      {"uchar_t", uchar_},
      {"ushort_t", ushort_},
      {"uint_t", uint_},
      {"ulong_t", ulong_},
      {"u_longlong_t", ullong_},
      {"longlong_t", llong_},
      {"dev_t", ulong_},
      {"ino_t", ulong_},
      {"mode_t", uint_},
      {"caddr_t", nullptr},
      {"bool", nullptr},
      {"boolean_t", int_},
      // Solaris identifiers D scripts name (illumos <sys/types.h>, LP64).
      {"psetid_t", int_},
      {"chipid_t", int_},
      {"zoneid_t", int_},
      {"taskid_t", int_},
      {"projid_t", int_},
      {"major_t", uint_},
      {"minor_t", uint_},
      {"ipaddr_t", uint_},
  };
  for (const auto& [name, type] : typedefs) {
    if (type) names_.emplace(name, type);
  }
  names_.emplace("caddr_t", pointerTo(char_));
  names_.emplace("uintptr_t", ulong_);
}

const Type* TypeTable::make(Type t) { return newType(std::move(t)); }

Type* TypeTable::newType(Type t) {
  if (t.align == 1 && t.kind != Type::Kind::Struct && t.kind != Type::Kind::Union) {
    t.align = t.size ? std::min<uint32_t>(t.size, 8) : 1;
  }
  storage_.push_back(std::move(t));
  Type* type = &storage_.back();
  if (!type->name.empty()) names_.emplace(type->name, type);
  return type;
}

Type* TypeTable::tagged(Type::Kind kind, const std::string& tag, bool forDefinition) {
  const char* word = kind == Type::Kind::Struct  ? "struct "
                     : kind == Type::Kind::Union ? "union "
                                                 : "enum ";
  // A scoped tag (struct vmlinux`task_struct) names the module's type; the
  // D and C scopes are the script's own types. Linux has one kernel type space.
  std::string_view bare = tag, scope;
  if (size_t tick = tag.find('`'); tick != std::string::npos) {
    scope = bare.substr(0, tick);
    bare = bare.substr(tick + 1);
  }
  const bool kernelScope = !scope.empty() && scope != "D" && scope != "C";
  const std::string name = word + std::string(bare);
  if (kernelScope && !forDefinition && source_) {
    if (const Type* kernel = source_->find(*this, name)) return const_cast<Type*>(kernel);
  }
  if (auto it = names_.find(name); it != names_.end()) return const_cast<Type*>(it->second);
  // A use names the kernel's type when there is one; a definition is the script's own.
  if (!forDefinition && source_ && scope.empty()) {
    if (const Type* kernel = source_->find(*this, name)) return const_cast<Type*>(kernel);
  }
  return newType({.kind = kind,
                  .name = name,
                  .size = kind == Type::Kind::Enum ? 4u : 0u,
                  .isSigned = kind == Type::Kind::Enum,
                  .rank = 3,
                  .complete = false});
}

const Type* TypeTable::functionType(const Type* result) {
  auto key = std::make_pair(result, kFunctionCountKey);
  if (auto it = derived_.find(key); it != derived_.end()) return it->second;
  storage_.push_back(
      {.kind = Type::Kind::Function, .name = result->name + " ()", .target = result});
  return derived_[key] = &storage_.back();
}

const Type* TypeTable::complete(const Type* t) {
  if (t && t->isStruct() && !t->complete && t->typeId && source_) {
    source_->complete(*this, const_cast<Type&>(*t));
  }
  return t;
}

const Member* TypeTable::findMember(const Type* structType, std::string_view name) {
  complete(structType);
  for (const Member& m : structType->members) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

void TypeTable::addEnumerator(const std::string& name, int64_t value, const Type* type) {
  enumerators_[name] = {Enumerator{name, value}, type};
}

const Enumerator* TypeTable::findEnumerator(std::string_view name, const Type** type) const {
  auto it = enumerators_.find(name);
  if (it == enumerators_.end()) return nullptr;
  if (type) *type = it->second.second;
  return &it->second.first;
}

const Type* TypeTable::makeInt(const char* name, uint32_t size, bool isSigned, int rank) {
  return make({.kind = Type::Kind::Integer,
               .name = name,
               .size = size,
               .isSigned = isSigned,
               .rank = rank});
}

const Type* TypeTable::integer(uint32_t size, bool isSigned) const {
  switch (size) {
    case 1:
      return isSigned ? char_ : uchar_;
    case 2:
      return isSigned ? short_ : ushort_;
    case 4:
      return isSigned ? int_ : uint_;
    default:
      return isSigned ? long_ : ulong_;
  }
}

const Type* TypeTable::pointerTo(const Type* target) {
  auto key = std::make_pair(target, kPointerCountKey);
  if (auto it = derived_.find(key); it != derived_.end()) return it->second;
  std::string name = target->name;
  name += name.ends_with('*') ? "*" : " *";
  storage_.push_back(
      {.kind = Type::Kind::Pointer, .name = name, .size = 8, .target = target, .align = 8});
  return derived_[key] = &storage_.back();
}

const Type* TypeTable::boundedString(uint32_t size) {
  if (size > strsize_) return string_;  // size counts the NUL
  auto key = std::make_pair(string_, size);
  if (auto it = derived_.find(key); it != derived_.end()) return it->second;
  storage_.push_back({.kind = Type::Kind::String, .name = "string", .size = size});
  return derived_[key] = &storage_.back();
}

// DTrace's names for these types: "stack" for the frames of stack() and
// ustack(), "_symaddr" for a kernel address, "_usymaddr" for a user one.
const Type* TypeTable::codeAddress(ir::DataKind kind, uint32_t size) {
  auto key = std::make_pair(kind, size);
  if (auto it = codeAddresses_.find(key); it != codeAddresses_.end()) return it->second;
  const char* name = kind == ir::DataKind::KernelStack || kind == ir::DataKind::UserStack ? "stack"
                     : ir::isUserCodeKind(kind) ? "_usymaddr"
                                                : "_symaddr";
  storage_.push_back(
      {.kind = Type::Kind::CodeAddress, .name = name, .size = size, .align = 8, .codeKind = kind});
  return codeAddresses_[key] = &storage_.back();
}

const Type* TypeTable::arrayOf(const Type* element, uint32_t count) {
  auto key = std::make_pair(element, count);
  if (auto it = derived_.find(key); it != derived_.end()) return it->second;
  storage_.push_back({.kind = Type::Kind::Array,
                      .name = element->name + " [" + (count ? std::to_string(count) : "") + "]",
                      .size = element->size * count,
                      .target = element,
                      .count = count,
                      .align = element->align});
  return derived_[key] = &storage_.back();
}

const Type* TypeTable::lookup(std::string_view name) {
  if (size_t tick = name.find('`'); tick != std::string_view::npos) name = name.substr(tick + 1);
  auto it = names_.find(name);
  if (it != names_.end()) return it->second;
  return source_ ? source_->find(*this, name) : nullptr;
}

bool TypeTable::isLocalTypeName(std::string_view name) const {
  return lookupLocal(name) != nullptr;
}

const Type* TypeTable::lookupLocal(std::string_view name) const {
  if (size_t tick = name.find('`'); tick != std::string_view::npos) name = name.substr(tick + 1);
  auto it = names_.find(name);
  return it == names_.end() ? nullptr : it->second;
}

void TypeTable::addTypedef(const std::string& name, const Type* type) { names_[name] = type; }

const Type* TypeTable::promote(const Type* t) const {
  return t->kind == Type::Kind::Enum ? int_ : t;
}

const Type* TypeTable::arithmeticResult(const Type* a, const Type* b) const {
  a = promote(a);
  b = promote(b);
  auto rank = [](const Type* t) { return t->size * 8 + (t->isSigned ? 0 : 1); };
  if (rank(a) != rank(b)) return rank(a) > rank(b) ? a : b;
  return a->rank >= b->rank ? a : b;  // long and long long: either
}

}  // namespace dtrace::sema
