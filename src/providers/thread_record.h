// Probes that end what an earlier point of the same thread started:
// lockstat's adaptive-block fires at lock:contention_end with the time
// since lock:contention_begin, plockstat's mutex-acquire at the return of
// pthread_mutex_lock with the mutex its caller passed. A small recorder
// program at each start point writes, in the thread's task-local record,
// the time and the values the probes need; the probes' arguments and
// guards read them (ArgSource::Kind::Recorded and SinceRecorded). The
// record goes with its thread, so no thread's record outlives it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bpf/attach.h"
#include "bpf/map.h"
#include "bpf/program.h"
#include "providers/probe.h"
#include "util/result.h"

namespace dtrace::providers {

// What a start point records, in the record's words 1.. (word 0 is the
// time, bpf_ktime_get_ns()).
struct RecordedValue {
  int16_t ctxOffset = 0;    // the context field: a raw tracepoint's word, a uprobe's register
  int16_t userOffset = -1;  // when >= 0: the 4 bytes of user memory at the field's value plus this
};

// Where the record is written: a raw tracepoint, or uprobe sites of one
// object in one process.
struct StartPoint {
  std::string rawTracepoint;
  std::string objectPath;
  int pid = -1;
  std::vector<bpf::UprobeSite> sites;
  std::vector<RecordedValue> values;
};

class ThreadRecord {
 public:
  // A record of `words` 64-bit words, the time included.
  static Result<std::shared_ptr<ThreadRecord>> create(const std::string& name, uint32_t words);

  // The task-storage map, for Probe::threadRecordFd.
  int mapFd() const { return map_.fd(); }
  uint32_t words() const { return words_; }
  // The record of the thread a pidfd names, words() words; false without one.
  bool lookup(int pidfd, uint64_t* words) const { return map_.lookup(&pidfd, words); }

  // Loads and attaches the recorder of `point` unless one with the same
  // `key` is attached already. The recorders stay attached as long as the
  // record lives (the provider's, until dtrace exits).
  Result<void> start(const std::string& key, const StartPoint& point);

 private:
  ThreadRecord(bpf::Map map, uint32_t words) : map_(std::move(map)), words_(words) {}

  bpf::Map map_;
  uint32_t words_;
  std::map<std::string, std::pair<bpf::Program, std::vector<bpf::Link>>> recorders_;
};

// The recorder's instructions, for tests and -S readers: the time, then
// each value, stored in the current thread's record.
std::vector<bpf::Insn> threadRecorderProgram(int mapFd, const std::vector<RecordedValue>& values);

}  // namespace dtrace::providers
