// -F (the flowindent option): dtrace(1M)'s FUNCTION column, indented by
// the calls it traces. A probe named "entry" or "...-entry" prints as
// "-> func" and indents the records after it two columns; one named
// "return" or "...-return" prints as "<- func" one step back out (syscall
// probes use "=>" and "<="); any other prints "| func:name" at the current
// depth. As libdtrace's dt_flowindent() decides, the second clause of one
// probe firing neither indents nor unindents again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "ir/program.h"

namespace dtrace::consume {

class FlowIndent {
 public:
  enum class Flow { None, Entry, Return };
  static Flow flowOf(std::string_view probeName);

  // The heading dtrace(1M) prints before the first record.
  static void appendHeading(std::string& out);

  // The record that follows one in its CPU's buffer, which tells whether a
  // return's record is the last of its probe firing.
  struct Next {
    uint32_t epid;
    uint32_t probeId;
  };

  // The column for a record of `ecb` (EPID `epid`) on `cpu`, with the
  // indentation it leaves for the records after it. `next` matters only
  // for a return; nullopt when nothing follows in the buffer.
  void appendPrefix(std::string& out, uint32_t cpu, uint32_t epid, const ir::Ecb& ecb,
                    std::optional<Next> next);
  // A record that prints no column still counts as the last one seen.
  void noteRecord(uint32_t epid, uint32_t probeId);

 private:
  int indent_ = 0;
  uint32_t lastEpid_ = 0;  // 0: none yet
  uint32_t lastProbeId_ = 0;
};

}  // namespace dtrace::consume
