#include "print/demangle.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace dtrace::print {

std::string demangledName(const std::string& name) {
  if (name.size() < 3 || name[0] != '_' || name[1] != 'Z') return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> plain(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && plain ? std::string(plain.get()) : name;
}

}  // namespace dtrace::print
