#include "consume/messages.h"

#include <cinttypes>
#include <cstdio>

namespace dtrace::consume {
namespace {

std::string plural(uint64_t n) { return n > 1 ? "s" : ""; }

}  // namespace

std::string formatFault(const ir::Program& program, const ir::FaultRecord& fault) {
  const auto kind = static_cast<ir::Fault>(fault.fault);
  std::string probe;
  if (fault.epid >= 1 && fault.epid <= program.ecbs.size()) {
    const ir::Ecb& ecb = program.ecbs[fault.epid - 1];
    probe = "ID " + std::to_string(ecb.probeId) + ": " + ecb.provider + ":" + ecb.module + ":" +
            ecb.function + ":" + ecb.name;
  } else {
    probe = "ID 0: :::";
  }

  std::string details;
  if (kind == ir::Fault::BadAddr || kind == ir::Fault::BadAlign) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " (0x%" PRIx64 ")", fault.address);
    details = buf;
  }
  const std::string where =
      fault.actionIndex == 0 ? "predicate" : "action #" + std::to_string(fault.actionIndex);
  std::string offset;
  if (fault.difOffset != UINT32_MAX) offset = " at DIF offset " + std::to_string(fault.difOffset);

  return "dtrace: error on enabled probe ID " + std::to_string(fault.epid) + " (" + probe +
         "): " + ir::faultMessage(kind) + details + " in " + where + offset;
}

std::string formatDrops(uint64_t n, int cpu) {
  return "dtrace: " + std::to_string(n) + " drop" + plural(n) + " on CPU " + std::to_string(cpu);
}

std::string formatAggregationDrops(uint64_t n, int cpu) {
  return "dtrace: " + std::to_string(n) + " aggregation drop" + plural(n) + " on CPU " +
         std::to_string(cpu);
}

std::string formatSpeculativeDrops(uint64_t n) {
  return "dtrace: " + std::to_string(n) + " speculative drop" + plural(n);
}

std::string formatFailedSpeculations(uint64_t n) {
  return "dtrace: " + std::to_string(n) + " failed speculation" + plural(n) +
         " (no speculative buffer available)";
}

std::string formatDynvarDrops(uint64_t n) {
  return "dtrace: " + std::to_string(n) + " dynamic variable drop" + plural(n);
}

}  // namespace dtrace::consume
