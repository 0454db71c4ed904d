// The C type of a value print() shows, described for the consumer: enough
// to walk the bytes a record holds (members, elements, enumerators) and to
// name each part as the script or the kernel's BTF names it. The consumer
// needs nothing of the compiler's type system beyond this.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace dtrace::ir {

enum class TypeKind : uint8_t {
  Integer,  // of `size` bytes, isSigned; isChar for char (shown as 'c')
  Float,    // float, double, long double
  Pointer,  // an address
  Enum,     // an integer shown by its enumerator's name
  String,   // D's string: NUL-terminated within `size` bytes
  Array,    // `count` elements of type `element`
  Struct,
  Union,
  Opaque,  // anything else (functions): shown by its type alone
};

struct TypeMember {
  std::string name;
  uint32_t type = 0;       // index into Program::types
  uint32_t bitOffset = 0;  // from the start of the struct or union
  uint32_t bitWidth = 0;   // a bit-field's width; 0 for other members
};

struct TypeEnumerator {
  std::string name;
  int64_t value = 0;
};

struct TypeInfo {
  TypeKind kind = TypeKind::Opaque;
  // As print() shows it: "int", "uint64_t", "struct foo", "char [5]",
  // "struct" for an anonymous struct.
  std::string name;
  uint32_t size = 0;
  bool isSigned = false;
  bool isChar = false;
  uint32_t element = 0;                       // Array
  uint32_t count = 0;                         // Array
  std::vector<TypeMember> members{};          // Struct, Union
  std::vector<TypeEnumerator> enumerators{};  // Enum
};

}  // namespace dtrace::ir
