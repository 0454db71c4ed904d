// Describes the types print() shows for the consumer (ir::TypeInfo): each
// type once per spelling, members and elements by index.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ir/type_info.h"
#include "sema/types.h"

namespace dtrace::codegen {

class TypeInfoBuilder {
 public:
  // The index of t's description; `spelled` is how a declaration names it
  // when a typedef does ("uint64_t"), else empty. Structs must be complete.
  uint32_t describe(const sema::Type* t, const std::string& spelled = "");
  std::vector<ir::TypeInfo> take() { return std::move(types_); }

 private:
  std::map<std::pair<const sema::Type*, std::string>, uint32_t> known_;
  std::vector<ir::TypeInfo> types_;
};

}  // namespace dtrace::codegen
