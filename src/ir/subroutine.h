// DTrace's subroutines (strlen, copyinstr, strjoin, alloca, ...), in one
// table: the compiler resolves a call's name to a row once, and the checker,
// the layout and the emitter decide by the row what they used to decide by
// name. A new subroutine is a row here, a prototype check in
// sema/subroutines.cpp and a case in the emitter.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace dtrace::ir {

enum class Subroutine : uint8_t {
  Alloca,
  Basename,
  Bcopy,
  Cleanpath,
  Copyin,
  Copyinstr,
  Copyinto,
  Dirname,
  Getmajor,
  Getminor,
  Htonl,
  Htonll,
  Htons,
  Index,
  InetNtoa,
  InetNtoa6,
  InetNtop,
  Json,
  LinkNtop,
  Lltostr,
  Ntohl,
  Ntohll,
  Ntohs,
  Progenyof,
  Rand,
  Rindex,
  Speculation,
  Strchr,
  Strjoin,
  Strlen,
  Strrchr,
  Strstr,
  Strtok,
  Strtoll,
  Substr,
  Tolower,
  Toupper,
  // Ones Linux cannot give (see SubroutineInfo::unavailable).
  Copyout,
  Copyoutstr,
  Panic,
  Breakpoint,
  MutexOwned,
  MutexOwner,
  MutexTypeAdaptive,
  MutexTypeSpin,
  RwReadHeld,
  RwWriteHeld,
  RwIswriter,
  Msgsize,
  Msgdsize,
  Getf,
  DdiPathname,
  // What the checker rewrites D's string forms into; no D identifier
  // spells their names.
  StringCharacter,  // s[i]: operands {s, i}, typed char
  StringOffset,     // s + i: the string from its character i on
  StringAddress,    // a string assigned to a char pointer: the address of a copy
};

// The scratch space a call takes beyond the string temporaries.
enum class SubroutineScratch : uint8_t {
  None,
  // The subroutines' areas (two string-sized areas per nesting level, the
  // strtok state and the alloca space): a call of one inside another's
  // operands takes the next level.
  Areas,
  // strjoin()'s join areas, a level per nesting.
  Join,
};

// DTrace subroutines Linux cannot give: destructive ones this kernel cannot
// perform safely (and why), and ones that read Solaris kernel objects
// (mutexes, rwlocks, STREAMS messages, devinfo nodes, file_t). They keep
// DTrace's prototypes, checked before the refusal, so that a wrong call
// gets DTrace's error.
struct Unavailable {
  std::vector<const char*> params;
  const char* reason = nullptr;  // null: no more to say than "not available"
};

struct SubroutineInfo {
  Subroutine subr;
  const char* name;
  uint8_t minArgs;  // arguments as DTrace's prototype counts them
  uint8_t maxArgs;
  SubroutineScratch scratch;
  // Arguments passed as void *: an array there is its address (illumos's
  // dt_node_is_argcompat), as a bit per argument.
  uint8_t voidPointerArgs;
  bool destructive;
  uint32_t introduced;  // the D version that introduced it (_dtrace_globals)
  std::optional<Unavailable> unavailable;
  bool internal;  // one the checker makes: no D identifier names it
};

// The subroutine a D identifier names, or null (never an internal one).
const SubroutineInfo* findSubroutine(std::string_view name);
const SubroutineInfo& subroutineInfo(Subroutine subr);

}  // namespace dtrace::ir
