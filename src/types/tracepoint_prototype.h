// The arguments a kernel tracepoint passes its raw-tracepoint programs: the
// parameters of its TP_PROTO, typed from the kernel's BTF (the typedef
// btf_trace_EVENT is a pointer to a function taking a private data pointer,
// then those parameters).
#pragma once

#include <string>
#include <vector>

#include "util/result.h"

namespace dtrace::types {

struct TracepointParam {
  std::string type;  // C type as D reads it: "struct task_struct *", "unsigned int"
  std::string name;  // empty when BTF names no parameter
  uint32_t size = 8;
  bool isSigned = false;
};

// An Error when the kernel has no raw tracepoint of that name (no BTF
// typedef: a perf-only event such as the syscalls category).
Result<std::vector<TracepointParam>> tracepointPrototype(const std::string& event);

// Whether the kernel's BTF has the event's raw-tracepoint prototype.
bool hasTracepointPrototype(const std::string& event);

}  // namespace dtrace::types
