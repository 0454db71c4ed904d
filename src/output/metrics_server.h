// -x metrics=ADDR:PORT: a minimal HTTP/1.1 server for Prometheus scrapes.
// It has no dependencies beyond the socket API and answers one request per
// connection, which is all a scraper needs.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "util/fd.h"
#include "util/result.h"

namespace dtrace::output {

// Serves GET /metrics (and a small index page at GET /) on a listening TCP
// socket from a thread of its own, so that a scrape never holds up the
// consumer's drain of the principal buffers.
class MetricsServer {
 public:
  // What a scrape returns: the body, given whether the scraper asked for
  // OpenMetrics (its Accept header names application/openmetrics-text).
  using Render = std::function<std::string(bool openMetrics)>;

  // `address` is "PORT", "HOST:PORT" or "[IPV6]:PORT"; a bare port binds
  // 127.0.0.1 (loopback unless an address is given). Port 0 picks a free
  // port (port() tells which). Errors are DTrace-style messages, e.g.
  // "cannot serve metrics on 127.0.0.1:9464: Address already in use".
  static Result<std::unique_ptr<MetricsServer>> start(const std::string& address, Render render);
  // Whether start() could read `address` (the same message if not), before
  // anything binds: dtrace checks it before it enables any probe.
  static Result<void> checkAddress(const std::string& address);

  ~MetricsServer();  // stops the thread and closes every socket
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  uint16_t port() const { return port_; }
  std::string address() const { return address_; }  // as bound, e.g. "127.0.0.1:9464"

 private:
  MetricsServer(Fd listener, Fd stopEvent, Render render, std::string address, uint16_t port);

  void run();
  void serve(Fd client);

  Fd listener_;
  Fd stopEvent_;  // an eventfd: readable once the destructor wants the thread gone
  Render render_;
  std::string address_;
  uint16_t port_;
  std::thread thread_;  // last: starts once everything it reads is in place
};

}  // namespace dtrace::output
