// D's type system: C's integer types of every width and signedness,
// pointers, arrays, D's string type, and the named types scripts use. Types
// are interned in a TypeTable and compared by address.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/record.h"

namespace dtrace::sema {

struct Type;

// A member of a struct or union. Bit-fields give their position in bits
// from the start of the struct; other members have bitWidth 0.
struct Member {
  std::string name;
  const Type* type = nullptr;
  uint32_t offset = 0;  // bytes from the start of the struct
  uint32_t bitOffset = 0;
  uint32_t bitWidth = 0;
  // The type as the declaration spells it when a typedef names it
  // ("uint64_t", "__u8 [4]"); empty when that is type->name. print() shows it.
  std::string typeName{};
};

struct Enumerator {
  std::string name;
  int64_t value = 0;
};

struct Type {
  // Float: C's float, double and long double, known for declarations and
  // sizes only; D does no floating-point arithmetic.
  // Aggregation: what an aggregation (@a) is where a value is expected; it
  // is only an argument to the actions on aggregations (printa, clear...).
  // CodeAddress: the value of stack(), ustack(), sym(), usym() and their
  // kin ("stack", "_symaddr", "_usymaddr"): program counters the consumer
  // names, usable only as aggregation keys and printf() arguments.
  enum class Kind {
    Void,
    Integer,
    String,
    Pointer,
    Array,
    Struct,
    Union,
    Enum,
    Function,
    Float,
    Aggregation,
    CodeAddress
  };
  Kind kind = Kind::Void;
  std::string name;  // as DTrace prints it: "int", "unsigned char", "char *", "string"
  uint32_t size = 0;
  bool isSigned = false;
  int rank = 0;  // integer conversion rank: char 1, short 2, int 3, long 4, long long 5
  const Type* target = nullptr;  // pointee (Pointer), element (Array), underlying (Enum)
  uint32_t count = 0;            // Array: number of elements
  uint32_t align = 1;
  // Struct, Union: members once complete; a kernel type's members are read
  // from BTF when first needed (typeId names it there).
  std::vector<Member> members{};
  bool complete = true;
  uint32_t typeId = 0;
  std::vector<Enumerator> enumerators{};  // Enum
  ir::DataKind codeKind = ir::DataKind::Unsigned;  // CodeAddress: how its record field reads

  bool isInteger() const { return kind == Kind::Integer || kind == Kind::Enum; }
  bool isPointer() const { return kind == Kind::Pointer; }
  bool isArray() const { return kind == Kind::Array; }
  bool isStruct() const { return kind == Kind::Struct || kind == Kind::Union; }
  // char[N] arrays read as strings where D expects one.
  bool isCharArray() const {
    return kind == Kind::Array && target->kind == Kind::Integer && target->size == 1;
  }
  bool isString() const { return kind == Kind::String; }
  bool isCharPointer() const {
    return kind == Kind::Pointer && target->kind == Kind::Integer && target->size == 1;
  }
  // DTrace's "string-compatible" types: string, char[N] and char *. Compared
  // with a string they compare as strings.
  bool isStringCompatible() const { return isString() || isCharArray() || isCharPointer(); }
  bool isScalar() const { return isInteger() || isPointer(); }
  bool isVoid() const { return kind == Kind::Void; }
  bool isFloat() const { return kind == Kind::Float; }
  bool isAggregation() const { return kind == Kind::Aggregation; }
  bool isCodeAddress() const { return kind == Kind::CodeAddress; }
  // Pointers and arrays: what C's pointer rules treat alike.
  bool isPointerLike() const { return kind == Kind::Pointer || kind == Kind::Array; }
};

class TypeTable;

// Types the table does not define itself: the kernel's, from BTF.
class TypeSource {
 public:
  virtual ~TypeSource() = default;
  // The type called `name` ("struct task_struct", "u64"), or null.
  virtual const Type* find(TypeTable& table, std::string_view name) = 0;
  // Fills the members of an incomplete struct or union it made.
  virtual void complete(TypeTable& table, Type& type) = 0;
};

class TypeTable {
 public:
  explicit TypeTable(uint32_t strsize = 256);

  const Type* voidType() const { return void_; }
  const Type* intType() const { return int_; }
  const Type* uintType() const { return uint_; }
  const Type* longType() const { return long_; }
  const Type* ulongType() const { return ulong_; }
  const Type* int64() const { return llong_; }
  const Type* uint64() const { return ullong_; }
  const Type* charType() const { return char_; }
  const Type* stringType() const { return string_; }
  const Type* aggregationType() const { return aggregation_; }

  // The integer type with this size and signedness and the highest rank at
  // that size (long for 8 bytes), as C's conversions pick it.
  const Type* integer(uint32_t size, bool isSigned) const;
  const Type* pointerTo(const Type* target);
  // D's string type whose values never exceed `size` bytes with the NUL
  // (execname: 16, a literal: its length + 1); records and keys then hold
  // only that many bytes. Assignment compatible with `string`.
  const Type* boundedString(uint32_t size);
  const Type* arrayOf(const Type* element, uint32_t count);
  // The value of a stack or symbol function: `kind` is a code-address kind
  // (ir::isCodeAddressKind) and `size` the bytes of its record field.
  const Type* codeAddress(ir::DataKind kind, uint32_t size);

  // Named types: C keyword combinations ("unsigned long long"), D's
  // built-in typedefs (uint32_t, size_t, ...), and typedefs a script adds.
  // Kernel types are asked of the type source when the table has no such
  // name; a module prefix (vmlinux`u64) is ignored.
  const Type* lookup(std::string_view name);
  bool isTypeName(std::string_view name) { return lookup(name) != nullptr; }
  bool isLocalTypeName(std::string_view name) const;  // without asking the kernel
  const Type* lookupLocal(std::string_view name) const;
  void addTypedef(const std::string& name, const Type* type);
  void setSource(TypeSource* source) { source_ = source; }

  // Structs, unions and enums by tag: `struct foo` is made incomplete on
  // first mention and completed by its definition. A use (not a
  // definition) of a tag the script never defined names the kernel's type.
  Type* tagged(Type::Kind kind, const std::string& tag, bool forDefinition);
  const Type* functionType(const Type* result);
  // A struct or union with its members (kernel types are completed here).
  const Type* complete(const Type* t);
  const Member* findMember(const Type* structType, std::string_view name);
  // Enumerators are ordinary identifiers in D: RED in `enum color { RED }`.
  void addEnumerator(const std::string& name, int64_t value, const Type* type);
  const Enumerator* findEnumerator(std::string_view name, const Type** type = nullptr) const;
  // A new type the source builds (kernel types); named ones are registered.
  Type* newType(Type t);

  // DTrace's usual arithmetic conversions (dt_type_promote): no promotion
  // to int, an enum is an int, and of two integer types the one of higher
  // rank (its width in bits, plus one if unsigned) is the result, so
  // `unsigned char + unsigned char` is an `unsigned char`.
  const Type* promote(const Type* t) const;
  const Type* arithmeticResult(const Type* a, const Type* b) const;

  // strsize counts a string's characters; its buffer holds them and the
  // terminating NUL, as illumos DTrace keeps strsize characters.
  uint32_t strsize() const { return strsize_; }
  uint32_t stringBufferSize() const { return strsize_ + 1; }

 private:
  const Type* make(Type t);
  const Type* makeInt(const char* name, uint32_t size, bool isSigned, int rank);

  std::deque<Type> storage_;
  std::map<std::string, const Type*, std::less<>> names_;
  std::map<std::pair<const Type*, uint32_t>, const Type*> derived_;  // (target, count|ptr)
  std::map<std::pair<ir::DataKind, uint32_t>, const Type*> codeAddresses_;  // (kind, size)
  std::map<std::string, std::pair<Enumerator, const Type*>, std::less<>> enumerators_;
  TypeSource* source_ = nullptr;
  uint32_t strsize_;
  const Type* aggregation_;
  const Type *void_, *char_, *schar_, *uchar_, *short_, *ushort_, *int_, *uint_, *long_, *ulong_,
      *llong_, *ullong_, *string_;
};

}  // namespace dtrace::sema
