#include "ir/subroutine.h"

#include "util/d_version.h"

namespace dtrace::ir {

namespace {

using S = Subroutine;
using Scratch = SubroutineScratch;

constexpr uint8_t arg(int i) { return static_cast<uint8_t>(1u << i); }

const char* const kNoUserWrites =
    "writing user memory (bpf_probe_write_user) is refused by kernel lockdown";

// A subroutine Linux gives.
SubroutineInfo given(S subr, const char* name, uint8_t minArgs, uint8_t maxArgs,
                     Scratch scratch = Scratch::None, uint32_t introduced = dVersion(1, 0),
                     uint8_t voidPointerArgs = 0) {
  return {subr,  name,       minArgs,      maxArgs, scratch, voidPointerArgs,
          false, introduced, std::nullopt, false};
}

// One Linux cannot give, with DTrace's prototype.
SubroutineInfo refused(S subr, const char* name, std::vector<const char*> params,
                       const char* reason = nullptr, bool destructive = false,
                       uint32_t introduced = dVersion(1, 0)) {
  const auto n = static_cast<uint8_t>(params.size());
  return {subr,        name,          n,
          n,           Scratch::None, 0,
          destructive, introduced,    Unavailable{std::move(params), reason},
          false};
}

SubroutineInfo internal(S subr, const char* name, uint8_t args, Scratch scratch) {
  return {subr, name, args, args, scratch, 0, false, dVersion(1, 0), std::nullopt, true};
}

// In the order of the enum.
const std::vector<SubroutineInfo>& table() {
  static const std::vector<SubroutineInfo> kTable = {
      given(S::Alloca, "alloca", 1, 1, Scratch::Areas),
      given(S::Basename, "basename", 1, 1, Scratch::Areas),
      given(S::Bcopy, "bcopy", 3, 3, Scratch::Areas, dVersion(1, 0), arg(0) | arg(1)),
      given(S::Cleanpath, "cleanpath", 1, 1, Scratch::Areas),
      given(S::Copyin, "copyin", 2, 2, Scratch::Areas),
      given(S::Copyinstr, "copyinstr", 1, 2),
      given(S::Copyinto, "copyinto", 3, 3, Scratch::Areas, dVersion(1, 0), arg(2)),
      given(S::Dirname, "dirname", 1, 1, Scratch::Areas),
      given(S::Getmajor, "getmajor", 1, 1),
      given(S::Getminor, "getminor", 1, 1),
      given(S::Htonl, "htonl", 1, 1, Scratch::None, dVersion(1, 3)),
      given(S::Htonll, "htonll", 1, 1, Scratch::None, dVersion(1, 3)),
      given(S::Htons, "htons", 1, 1, Scratch::None, dVersion(1, 3)),
      given(S::Index, "index", 2, 3, Scratch::Areas, dVersion(1, 1)),
      given(S::InetNtoa, "inet_ntoa", 1, 1, Scratch::Areas, dVersion(1, 5)),
      given(S::InetNtoa6, "inet_ntoa6", 1, 2, Scratch::Areas, dVersion(1, 5)),
      given(S::InetNtop, "inet_ntop", 2, 2, Scratch::Areas, dVersion(1, 5), arg(1)),
      given(S::Json, "json", 2, 2, Scratch::Areas, dVersion(1, 11)),
      given(S::LinkNtop, "link_ntop", 2, 2, Scratch::Areas, dVersion(1, 0), arg(1)),
      given(S::Lltostr, "lltostr", 1, 2),
      given(S::Ntohl, "ntohl", 1, 1, Scratch::None, dVersion(1, 3)),
      given(S::Ntohll, "ntohll", 1, 1, Scratch::None, dVersion(1, 3)),
      given(S::Ntohs, "ntohs", 1, 1, Scratch::None, dVersion(1, 3)),
      given(S::Progenyof, "progenyof", 1, 1, Scratch::Areas),
      given(S::Rand, "rand", 0, 0),
      given(S::Rindex, "rindex", 2, 3, Scratch::Areas, dVersion(1, 1)),
      given(S::Speculation, "speculation", 0, 0),
      given(S::Strchr, "strchr", 2, 2, Scratch::Areas, dVersion(1, 1)),
      given(S::Strjoin, "strjoin", 2, 2, Scratch::Join),
      given(S::Strlen, "strlen", 1, 1),
      given(S::Strrchr, "strrchr", 2, 2, Scratch::Areas, dVersion(1, 1)),
      given(S::Strstr, "strstr", 2, 2, Scratch::Areas, dVersion(1, 1)),
      given(S::Strtok, "strtok", 2, 2, Scratch::Areas, dVersion(1, 1)),
      given(S::Strtoll, "strtoll", 1, 2, Scratch::Areas, dVersion(1, 11)),
      given(S::Substr, "substr", 2, 3, Scratch::None, dVersion(1, 1)),
      given(S::Tolower, "tolower", 1, 1, Scratch::None, dVersion(1, 8)),
      given(S::Toupper, "toupper", 1, 1, Scratch::None, dVersion(1, 8)),
      refused(S::Copyout, "copyout", {"void *", "uintptr_t", "size_t"}, kNoUserWrites, true),
      refused(S::Copyoutstr, "copyoutstr", {"char *", "uintptr_t", "size_t"}, kNoUserWrites, true),
      refused(S::Panic, "panic", {}, "a BPF program cannot panic the kernel", true),
      refused(S::Breakpoint, "breakpoint", {}, "a BPF program cannot enter the kernel debugger",
              true),
      // The kernel's own mutex, as illumos names genunix`kmutex_t.
      refused(S::MutexOwned, "mutex_owned", {"struct mutex *"}),
      refused(S::MutexOwner, "mutex_owner", {"struct mutex *"}),
      refused(S::MutexTypeAdaptive, "mutex_type_adaptive", {"struct mutex *"}),
      refused(S::MutexTypeSpin, "mutex_type_spin", {"struct mutex *"}),
      refused(S::RwReadHeld, "rw_read_held", {"krwlock_t *"}),
      refused(S::RwWriteHeld, "rw_write_held", {"krwlock_t *"}),
      refused(S::RwIswriter, "rw_iswriter", {"krwlock_t *"}),
      refused(S::Msgsize, "msgsize", {"mblk_t *"}),
      refused(S::Msgdsize, "msgdsize", {"mblk_t *"}),
      refused(S::Getf, "getf", {"int"}, nullptr, false, dVersion(1, 10)),
      refused(S::DdiPathname, "ddi_pathname", {"void *", "int"}),
      internal(S::StringCharacter, "string[]", 2, Scratch::None),
      internal(S::StringOffset, "string+", 2, Scratch::None),
      internal(S::StringAddress, "&string", 1, Scratch::Areas),
  };
  return kTable;
}

}  // namespace

const SubroutineInfo* findSubroutine(std::string_view name) {
  for (const SubroutineInfo& s : table()) {
    if (!s.internal && name == s.name) return &s;
  }
  return nullptr;
}

const SubroutineInfo& subroutineInfo(Subroutine subr) {
  return table().at(static_cast<size_t>(subr));
}

}  // namespace dtrace::ir
