// The D version that introduced each built-in identifier (libdtrace's
// _dtrace_globals): under -x version=V an identifier introduced after V
// is not a built-in, so a program written for V may use the name.
#pragma once

#include <cstdint>
#include <string_view>

namespace dtrace::sema {

// The version a built-in variable, subroutine, action or aggregating
// function came in; 1.0 for the rest.
uint32_t introducedIn(std::string_view identifier);

}  // namespace dtrace::sema
