// The work of a tracing session (libdtrace's dt_work.c): fires BEGIN,
// starts the target processes, consumes records until exit(), a signal or
// the targets' end, fires END, prints the aggregations, and reports drops
// and errors on the way.
#pragma once

#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "driver/program.h"
#include "util/option_table.h"
#include "util/result.h"

struct epoll_event;

namespace dtrace::proc {
class Target;
}

namespace dtrace::consume {
class Consumer;
}

namespace dtrace::driver {

class SessionSymbols;

struct WorkLoopConfig {
  bool quiet = false;
  FILE* out = stdout;
  std::string outName = "<stdout>";  // -o's file, as write errors name it
  std::string commandLine;           // as typed, for the flame graph's subtitle
};

class WorkLoop {
 public:
  // `program` is loaded; it and `options` outlive the loop.
  WorkLoop(Program& program, OptionTable& options, WorkLoopConfig config);
  ~WorkLoop();

  // Fires BEGIN, starts the targets, consumes until the end of tracing,
  // fires END and prints the aggregations. Returns the exit status.
  Result<int> run(std::vector<proc::Target>& targets);

 private:
  struct Consuming;
  struct Tracing;

  // The consumer and the buffers it reads, set up as the options say.
  Result<std::unique_ptr<Consuming>> setUpConsumer(SessionSymbols& symbols);
  // BEGIN, its records, and the -c commands started.
  Result<void> begin(Tracing& t);
  // Consumes until exit(), a signal, the targets' end or a write error.
  Result<void> consume(Tracing& t);
  // One wake-up's events; whether tracing is done.
  bool handleEvents(Tracing& t, const epoll_event* events, int n);
  // The last records, END, and the probes detached.
  void end(Tracing& t);
  // The aggregations and the flame graph; the exit status.
  Result<int> finish(Tracing& t);
  // Enables what processes that mapped code since the last look may now
  // match (dlopen).
  void extendToMapped(Tracing& t);
  void reportCounters(consume::Consumer& consumer);
  // The time `rate` (an option) after `now`.
  uint64_t after(const char* rate, uint64_t now) const;

  Program& program_;
  OptionTable& options_;
  WorkLoopConfig config_;
  std::vector<uint64_t> reportedDrops_;   // per CPU, buffer then aggregation drops
  std::vector<uint64_t> reportedTotals_;  // dynamic, speculative drops, failed speculations
};

}  // namespace dtrace::driver
