// C++ symbol names as the source wrote them: libstdc++'s demangler turns
// _ZN4node5Realm19ExecuteBootstrapperEPKc into
// node::Realm::ExecuteBootstrapper(char const*), as perf and gdb print it.
#pragma once

#include <string>

namespace dtrace::print {

// `name` demangled when it is a mangled C++ name (Itanium ABI, "_Z..."),
// else `name` itself.
std::string demangledName(const std::string& name);

}  // namespace dtrace::print
