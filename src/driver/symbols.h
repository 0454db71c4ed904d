// The symbols a tracing session names program counters with. Kernel
// symbols are read on first use; user symbols only when the program
// records user addresses (ustack(), usym()..., %A), and then the kernel's
// mapping events are followed from before the -c command runs, so that
// processes that exit before their stacks are printed are still named.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "ir/program.h"
#include "print/stack.h"
#include "sym/mapping_events.h"
#include "sym/user_symbols.h"

namespace dtrace::driver {

class SessionSymbols {
 public:
  // `stackIndent` is the stackindent option; `targetPid` the -c or -p
  // process (0 without one), whose addresses %A names; `demangle` the
  // demangle option (C++ names demangled).
  // With `followMappings`, mapping events are followed even when no
  // address is to be named (for probes in libraries processes dlopen).
  SessionSymbols(const ir::Program& program, int stackIndent, int targetPid,
                 bool followMappings = false, bool demangle = true);

  // Starts following mapping events (before -c commands start). A failure
  // is not fatal: live processes' mappings are still read from /proc.
  Result<void> start();
  // A process to read the mappings of now (-p: it was running already).
  void notePid(int pid);
  // Takes in the mapping events the kernel recorded since the last call,
  // and hands each to `observer` when given.
  void refresh(const std::function<void(const sym::MappingEvent&)>& observer = {});
  std::vector<int> pollFds() const;

  const print::SymbolContext& context() const { return context_; }
  sym::UserSymbols* user() { return user_.get(); }

 private:
  std::unique_ptr<sym::UserSymbols> user_;  // null: the program names no user address
  std::unique_ptr<sym::MappingEvents> events_;
  bool followMappings_ = false;
  print::SymbolContext context_;
};

// Whether records or keys of the program hold user addresses to name.
bool namesUserAddresses(const ir::Program& program);

}  // namespace dtrace::driver
