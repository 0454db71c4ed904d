// The kernel's types (from BTF) as D types: `struct task_struct`, kernel
// typedefs such as u64, and the members of kernel structs, imported one
// type at a time as a script names them.
#pragma once

#include <map>

#include "sema/types.h"

namespace dtrace::types {

class BtfTypeSource : public sema::TypeSource {
 public:
  const sema::Type* find(sema::TypeTable& table, std::string_view name) override;
  void complete(sema::TypeTable& table, sema::Type& type) override;

 private:
  const sema::Type* import(sema::TypeTable& table, uint32_t id);
  std::map<uint32_t, const sema::Type*> imported_;  // by BTF type id
};

}  // namespace dtrace::types
