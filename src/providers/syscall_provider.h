// The syscall provider: syscall::NAME:entry and syscall::NAME:return for
// every x86-64 system call that has tracepoints in tracefs events/syscalls.
// Probes fire from the raw tracepoints sys_enter and sys_exit through one
// dispatcher per direction (see syscall_dispatch.h); the tracepoint format
// files only give the arguments their C types.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "providers/provider.h"
#include "providers/tracepoint_format.h"

namespace dtrace::providers {

std::unique_ptr<Provider> makeSyscallProvider();

// Entry-probe arguments from the fields of a sys_enter_NAME format: every
// field after the common header and __syscall_nr, in order, read from the
// saved argument registers (SyscallArg), with the width of the field's C
// type (4 bytes for int, 8 for pointers and longs).
std::vector<ArgSource> syscallEntryArgs(const std::vector<TracepointField>& fields);

// Return-probe arguments: arg0 and arg1 are both the return value (with
// errno split off), ctx[1] of the sys_exit raw tracepoint. The format file
// (sys_exit_NAME) only names its type.
Result<std::vector<ArgSource>> syscallReturnArgs(const std::vector<TracepointField>& fields);

}  // namespace dtrace::providers
