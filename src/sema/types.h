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

namespace dtrace::sema {

struct Type {
  enum class Kind { Void, Integer, String, Pointer, Array, Struct, Union, Enum, Function };
  Kind kind = Kind::Void;
  std::string name;  // as DTrace prints it: "int", "unsigned char", "char *", "string"
  uint32_t size = 0;
  bool isSigned = false;
  int rank = 0;                    // integer conversion rank: char 1, short 2, int 3, long 4, long long 5
  const Type* target = nullptr;    // pointee (Pointer), element (Array), underlying (Enum)
  uint32_t count = 0;              // Array: number of elements

  bool isInteger() const { return kind == Kind::Integer || kind == Kind::Enum; }
  bool isPointer() const { return kind == Kind::Pointer; }
  bool isString() const { return kind == Kind::String; }
  bool isScalar() const { return isInteger() || isPointer(); }
  bool isVoid() const { return kind == Kind::Void; }
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

  // The integer type with this size and signedness and the highest rank at
  // that size (long for 8 bytes), as C's conversions pick it.
  const Type* integer(uint32_t size, bool isSigned) const;
  const Type* pointerTo(const Type* target);
  // D's string type whose values never exceed `size` bytes with the NUL
  // (execname: 16, a literal: its length + 1); records and keys then hold
  // only that many bytes. Assignment compatible with `string`.
  const Type* boundedString(uint32_t size);
  const Type* arrayOf(const Type* element, uint32_t count);

  // Named types: C keyword combinations ("unsigned long long"), D's
  // built-in typedefs (uint32_t, size_t, ...), and typedefs a script adds.
  const Type* lookup(std::string_view name) const;
  bool isTypeName(std::string_view name) const { return lookup(name) != nullptr; }
  void addTypedef(const std::string& name, const Type* type);

  // C's integer promotions and usual arithmetic conversions.
  const Type* promote(const Type* t) const;
  const Type* arithmeticResult(const Type* a, const Type* b) const;

  uint32_t strsize() const { return strsize_; }

 private:
  const Type* make(Type t);
  const Type* makeInt(const char* name, uint32_t size, bool isSigned, int rank);

  std::deque<Type> storage_;
  std::map<std::string, const Type*, std::less<>> names_;
  std::map<std::pair<const Type*, uint32_t>, const Type*> derived_;  // (target, count|ptr)
  uint32_t strsize_;
  const Type *void_, *char_, *schar_, *uchar_, *short_, *ushort_, *int_, *uint_, *long_, *ulong_,
      *llong_, *ullong_, *string_;
};

}  // namespace dtrace::sema
