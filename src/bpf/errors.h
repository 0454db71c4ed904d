// Small shared pieces of error text for the BPF layer.
#pragma once

#include <cerrno>
#include <string>

namespace dtrace::bpf {

// strerror() text for a positive errno value, e.g. "Permission denied".
std::string errnoText(int err);

// True for the errno values that mean "not allowed" rather than "wrong".
inline bool isPermissionError(int err) { return err == EPERM || err == EACCES; }

// Kernel object names (maps, programs) are at most 15 characters of
// [A-Za-z0-9_.]; anything else makes the kernel reject the object, so
// replace it and truncate.
std::string kernelObjectName(const std::string& name);

}  // namespace dtrace::bpf
