// What the providers of user-space probes (pid, USDT) share: their probes
// are uprobes at sites of an object, for one process; probes whose
// arguments are read alike share one program, attached to all their sites
// in one multi-uprobe link per object where the kernel offers it (one
// perf event per site otherwise).
#pragma once

#include <string>

#include "providers/provider.h"
#include "sym/process_maps.h"

namespace dtrace::providers {

class UprobeProvider : public Provider {
 public:
  bool sharesPrograms() const override { return true; }
  bool moduleMatches(const Probe& probe, std::string_view pattern) const override;
  bpf::ProgramKind programKind(const Probe& probe) const override;
  Result<std::vector<bpf::Link>> attach(const Probe& probe, int progFd) override;
  Result<std::vector<bpf::Link>> attachGroup(std::span<const Probe* const> group,
                                             int progFd) override;
  std::vector<std::string> takeWarnings() override { return std::move(warnings_); }

 private:
  // What attaching a group's sites came to.
  struct Attachment {
    std::vector<bpf::Link> links;
    size_t attached = 0, refused = 0;  // sites
    std::string firstRefusal;
    void add(Result<bpf::Link> link, size_t sites);
  };
  void attachMulti(int progFd, const std::string& path, int pid,
                   std::span<const bpf::UprobeSite> sites, Attachment& out);

  std::vector<std::string> warnings_;
};

// The pt_regs offsets of the x86-64 registers that carry a function's
// first six integer arguments (rdi, rsi, rdx, rcx, r8, r9), and of the
// return value (rax) and stack pointer.
inline constexpr int16_t kUserArgRegisters[] = {112, 104, 96, 88, 72, 64};
inline constexpr int16_t kUserReturnRegister = 80;
inline constexpr int16_t kUserStackPointer = 152;

// How DTrace names an object in a description: its file name
// ("libc.so.6"), its full path, "libc" for a libc.so.*, and "a.out" for
// the executable.
bool objectMatches(std::string_view pattern, std::string_view path, bool executable);

// An object a process maps code from: its first executable mapping, and
// whether it is the process's executable.
struct ProcessObject {
  sym::Mapping mapping;
  bool executable = false;
};
// The objects of a live process, once each, in the order they are mapped.
std::vector<ProcessObject> processObjects(int pid);

// A path under which the kernel can open the object mapped at `mapping`
// in process `pid` (the map_files link when the file was deleted).
std::string uprobePath(int pid, const sym::Mapping& mapping);

}  // namespace dtrace::providers
