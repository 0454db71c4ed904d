// The syscall provider: syscall::NAME:entry and syscall::NAME:return for
// every system call with tracepoints in tracefs events/syscalls.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "providers/provider.h"
#include "providers/tracepoint_format.h"

namespace dtrace::providers {

std::unique_ptr<Provider> makeSyscallProvider();

// Entry-probe arguments from the fields of a sys_enter_NAME format: every
// field after the common header and __syscall_nr, in order.
std::vector<ArgSource> syscallEntryArgs(const std::vector<TracepointField>& fields);

// Return-probe arguments from a sys_exit_NAME format: arg0 and arg1 are both
// the return value (with errno split off) at the `ret` field.
Result<std::vector<ArgSource>> syscallReturnArgs(const std::vector<TracepointField>& fields);

}  // namespace dtrace::providers
