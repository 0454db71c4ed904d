#include "consume/flow_indent.h"

#include <cstdio>

namespace dtrace::consume {
namespace {

// "entry" itself, or a name ending in "-entry" (not "carpentry").
bool namedFlow(std::string_view name, std::string_view flow) {
  if (name == flow) return true;
  return name.size() > flow.size() && name.ends_with(flow) &&
         name[name.size() - flow.size() - 1] == '-';
}

}  // namespace

FlowIndent::Flow FlowIndent::flowOf(std::string_view probeName) {
  if (namedFlow(probeName, "entry")) return Flow::Entry;
  if (namedFlow(probeName, "return")) return Flow::Return;
  return Flow::None;
}

void FlowIndent::appendHeading(std::string& out) {
  char line[64];
  std::snprintf(line, sizeof line, "%3s %-41s\n", "CPU", "FUNCTION");
  out += line;
}

void FlowIndent::appendPrefix(std::string& out, uint32_t cpu, uint32_t epid, const ir::Ecb& ecb,
                              std::optional<Next> next) {
  Flow flow = flowOf(ecb.name);
  // Another clause of the probe whose entry was just printed.
  if (flow == Flow::Entry && lastEpid_ != 0 && epid != lastEpid_ && ecb.probeId == lastProbeId_) {
    flow = Flow::None;
  }
  // A return with another clause of the same firing still to print.
  if (flow == Flow::Return && next && next->epid != epid && next->probeId == ecb.probeId) {
    flow = Flow::None;
  }
  const bool syscall = ecb.provider == "syscall";
  std::string name(static_cast<size_t>(indent_), ' ');
  if (flow == Flow::Return && indent_ > 0) name.resize(static_cast<size_t>(indent_ -= 2));
  switch (flow) {
    case Flow::Entry:
      name.append(syscall ? " => " : " -> ").append(ecb.function);
      break;
    case Flow::Return:
      name.append(syscall ? " <= " : " <- ").append(ecb.function);
      break;
    case Flow::None:
      name.append("| ").append(ecb.function).append(1, ':').append(ecb.name);
      break;
  }
  char cpuColumn[16];
  std::snprintf(cpuColumn, sizeof cpuColumn, "%3u ", cpu);
  out += cpuColumn;
  out += name;
  if (name.size() < 41) out.append(41 - name.size(), ' ');
  out += ' ';
  if (flow == Flow::Entry) indent_ += 2;
  noteRecord(epid, ecb.probeId);
}

void FlowIndent::noteRecord(uint32_t epid, uint32_t probeId) {
  lastEpid_ = epid;
  lastProbeId_ = probeId;
}

}  // namespace dtrace::consume
