#include "providers/io_provider.h"

#include "providers/stable_provider.h"

namespace dtrace::providers {

namespace {

std::vector<StableProbe> ioProbes() {
  // block_rq_issue(rq) and block_rq_complete(rq, error, nr_bytes): all
  // three arguments are views of the request.
  const std::vector<ArgSource> request = {
      contextWord(0, "struct request *", "bufinfo_t *"),
      contextWord(0, "struct request *", "devinfo_t *"),
      contextWord(0, "struct request *", "fileinfo_t *"),
  };
  return {
      {"start", {"block_rq_issue"}, {}, request},
      {"done", {"block_rq_complete"}, {}, request},
  };
}

}  // namespace

std::unique_ptr<Provider> makeIoProvider() {
  const char* noWait = "Linux has no tracepoint where a thread waits for a block request";
  return makeStableProvider("io", ioProbes(), {{"wait-start", noWait}, {"wait-done", noWait}});
}

}  // namespace dtrace::providers
