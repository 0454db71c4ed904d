// The x86-64 system call table (name -> number), generated at build time
// from the kernel UAPI header by scripts/gen-syscall-numbers.sh, and the
// mapping from tracefs syscall event names to it.
#pragma once

#include <optional>
#include <string_view>

namespace dtrace::providers {

struct SyscallId {
  std::string_view name;  // the table's name, e.g. "fstat"
  int number = -1;
};

// The number of a system call by its table name ("read" -> 0).
std::optional<int> syscallNumber(std::string_view name);

// The highest number in the table.
int maxSyscallNumber();

// The system call behind a tracefs event name (sys_enter_NAME minus the
// prefix): the same name, else without a "new" prefix (newfstat -> fstat,
// newuname -> uname), else a known alias (sendfile64 -> sendfile, umount ->
// umount2). Empty when the table has no such call.
std::optional<SyscallId> syscallForTracepoint(std::string_view tracefsName);

}  // namespace dtrace::providers
