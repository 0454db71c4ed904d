#include "output/metrics_server.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <exception>
#include <optional>
#include <string_view>
#include <system_error>
#include <vector>

namespace dtrace::output {
namespace {

using Clock = std::chrono::steady_clock;

// A request head larger than this is not a scraper's: refuse it rather
// than buffer without bound.
constexpr size_t kMaxRequestHead = 8 * 1024;
// The whole head must arrive within this, so a client that connects and
// trickles (or sends nothing) holds the one serving thread only briefly.
constexpr std::chrono::milliseconds kRequestTimeout{3000};
// A response write may stall this long before the client is given up on.
constexpr std::chrono::milliseconds kWriteStallTimeout{5000};

constexpr const char* kPrometheusType = "text/plain; version=0.0.4; charset=utf-8";
constexpr const char* kOpenMetricsType =
    "application/openmetrics-text; version=1.0.0; charset=utf-8";
constexpr const char* kPlainType = "text/plain; charset=utf-8";

constexpr const char* kIndexPage =
    "<!DOCTYPE html>\n"
    "<html><head><title>DTrace metrics</title></head>\n"
    "<body><h1>DTrace metrics</h1><p><a href=\"/metrics\">Metrics</a></p></body></html>\n";

// Thread-safe, unlike strerror: the serving thread may format errors too.
std::string errnoText(int err) { return std::generic_category().message(err); }

char lowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++) {
    if (lowerAscii(a[i]) != lowerAscii(b[i])) return false;
  }
  return true;
}

bool startsWithIgnoreCase(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && equalsIgnoreCase(text.substr(0, prefix.size()), prefix);
}

std::string_view trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t");
  if (begin == std::string_view::npos) return {};
  size_t end = text.find_last_not_of(" \t");
  return text.substr(begin, end - begin + 1);
}

// ---- Addresses ----

struct HostPort {
  std::string host;
  std::string port;
};

Result<HostPort> splitAddress(const std::string& address) {
  auto fail = [&](const std::string& why) {
    return makeError("cannot serve metrics on '" + address + "': " + why);
  };
  HostPort split;
  if (!address.empty() && address[0] == '[') {
    size_t close = address.find(']');
    if (close == std::string::npos) return fail("missing ']' after the IPv6 address");
    if (close + 1 >= address.size() || address[close + 1] != ':') {
      return fail("expected ':PORT' after ']'");
    }
    split.host = address.substr(1, close - 1);
    split.port = address.substr(close + 2);
    if (split.host.empty()) return fail("empty IPv6 address");
  } else {
    size_t colon = address.rfind(':');
    if (colon == std::string::npos) {
      split.port = address;
    } else if (address.find(':') != colon) {
      return fail("an IPv6 address needs brackets, as in [::1]:9464");
    } else {
      split.host = address.substr(0, colon);
      split.port = address.substr(colon + 1);
    }
    // Loopback unless the user names an address: metrics may reveal what
    // is being traced, so they are not exposed to the network by default.
    if (split.host.empty()) split.host = "127.0.0.1";
  }
  if (split.port.empty()) return fail("no port given");
  if (split.port.size() > 5 || split.port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(split.port) > 65535) {
    return fail("bad port '" + split.port + "'");
  }
  return split;
}

// "127.0.0.1:9464" or "[::1]:9464".
std::string formatAddress(const sockaddr* addr, socklen_t length) {
  char host[NI_MAXHOST];
  char port[NI_MAXSERV];
  if (getnameinfo(addr, length, host, sizeof host, port, sizeof port,
                  NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
    return "?";
  }
  if (addr->sa_family == AF_INET6) return std::string("[") + host + "]:" + port;
  return std::string(host) + ":" + port;
}

uint16_t portOf(const sockaddr_storage& addr) {
  if (addr.ss_family == AF_INET6) {
    return ntohs(reinterpret_cast<const sockaddr_in6*>(&addr)->sin6_port);
  }
  return ntohs(reinterpret_cast<const sockaddr_in*>(&addr)->sin_port);
}

struct AddrInfoDeleter {
  void operator()(addrinfo* info) const { freeaddrinfo(info); }
};
using AddrInfoList = std::unique_ptr<addrinfo, AddrInfoDeleter>;

// Numeric addresses first, so that "127.0.0.1" never touches the resolver.
Result<AddrInfoList> resolve(const std::string& address, const HostPort& split) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  int status = getaddrinfo(split.host.c_str(), split.port.c_str(), &hints, &found);
  if (status == EAI_NONAME) {
    hints.ai_flags = AI_NUMERICSERV;
    status = getaddrinfo(split.host.c_str(), split.port.c_str(), &hints, &found);
  }
  if (status != 0) {
    std::string why = status == EAI_SYSTEM ? errnoText(errno) : gai_strerror(status);
    return makeError("cannot serve metrics on '" + address + "': cannot resolve '" + split.host +
                     "': " + why);
  }
  return AddrInfoList(found);
}

struct Listener {
  Fd fd;
  std::string address;
  uint16_t port = 0;
};

Result<Listener> listenOn(const addrinfo& candidate) {
  std::string requested = formatAddress(candidate.ai_addr, candidate.ai_addrlen);
  auto fail = [&](int err) {
    return makeError("cannot serve metrics on " + requested + ": " + errnoText(err));
  };
  // Non-blocking, so that a connection reset between poll and accept
  // cannot block the serving thread in accept.
  Fd fd(socket(candidate.ai_family, candidate.ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
               candidate.ai_protocol));
  if (!fd) return fail(errno);
  // A restarted dtrace can bind again while the last run's connections
  // sit in TIME_WAIT.
  int on = 1;
  if (setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0) return fail(errno);
  if (bind(fd.get(), candidate.ai_addr, candidate.ai_addrlen) != 0) return fail(errno);
  if (listen(fd.get(), SOMAXCONN) != 0) return fail(errno);
  sockaddr_storage bound{};
  socklen_t length = sizeof bound;
  if (getsockname(fd.get(), reinterpret_cast<sockaddr*>(&bound), &length) != 0) {
    return fail(errno);
  }
  Listener listener;
  listener.fd = std::move(fd);
  listener.address = formatAddress(reinterpret_cast<const sockaddr*>(&bound), length);
  listener.port = portOf(bound);
  return listener;
}

// ---- Connections ----

enum class Wait { kReady, kStopped, kTimedOut, kFailed };

// Waits for `events` on `fd`, but gives up as soon as the server is told
// to stop: the destructor must not wait out an idle client.
Wait waitFor(int fd, short events, int stopFd, Clock::time_point deadline) {
  for (;;) {
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return Wait::kTimedOut;
    pollfd fds[2] = {{fd, events, 0}, {stopFd, POLLIN, 0}};
    int ready = poll(fds, 2, static_cast<int>(left.count()));
    if (ready < 0) {
      if (errno == EINTR) continue;
      return Wait::kFailed;
    }
    if (fds[1].revents != 0) return Wait::kStopped;
    if (fds[0].revents != 0) return Wait::kReady;  // errors and hang-ups show in recv/send
  }
}

// Writes all of `data`, or gives up on a stalled or vanished client.
// MSG_NOSIGNAL: a scraper that hangs up early must not SIGPIPE dtrace.
void sendAll(int fd, std::string_view data, int stopFd) {
  while (!data.empty()) {
    ssize_t sent = send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (sent > 0) {
      data.remove_prefix(static_cast<size_t>(sent));
      continue;
    }
    if (sent < 0 && errno == EINTR) continue;
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (waitFor(fd, POLLOUT, stopFd, Clock::now() + kWriteStallTimeout) != Wait::kReady) return;
      continue;
    }
    return;
  }
}

struct Response {
  int status = 200;
  const char* reason = "OK";
  std::string contentType = kPlainType;
  std::string body;
  std::string extraHeaders;  // each ending in \r\n
};

Response errorResponse(int status, const char* reason) {
  Response response;
  response.status = status;
  response.reason = reason;
  response.body = std::to_string(status) + " " + reason + "\n";
  return response;
}

std::string serialize(const Response& response, bool withBody) {
  std::string text = "HTTP/1.1 " + std::to_string(response.status) + " " + response.reason + "\r\n";
  text += "Content-Type: " + response.contentType + "\r\n";
  text += "Content-Length: " + std::to_string(response.body.size()) + "\r\n";
  text += "Connection: close\r\n";
  text += response.extraHeaders;
  text += "\r\n";
  if (withBody) text += response.body;
  return text;
}

// Whether an Accept header value asks for OpenMetrics: one of its media
// ranges is application/openmetrics-text, not refused with q=0.
bool acceptsOpenMetrics(std::string_view accept) {
  while (!accept.empty()) {
    size_t comma = accept.find(',');
    std::string_view range = accept.substr(0, comma);
    accept = comma == std::string_view::npos ? std::string_view{} : accept.substr(comma + 1);
    size_t semicolon = range.find(';');
    if (!equalsIgnoreCase(trim(range.substr(0, semicolon)), "application/openmetrics-text")) {
      continue;
    }
    bool refused = false;
    while (semicolon != std::string_view::npos) {
      range.remove_prefix(semicolon + 1);
      semicolon = range.find(';');
      std::string_view parameter = trim(range.substr(0, semicolon));
      if (startsWithIgnoreCase(parameter, "q=")) {
        refused = parameter.substr(2).find_first_not_of("0.") == std::string_view::npos;
      }
    }
    if (!refused) return true;
  }
  return false;
}

struct Request {
  std::string method;
  std::string path;  // without the query
  std::string accept;
};

bool isTokenChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool isToken(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!isTokenChar(c)) return false;
  }
  return true;
}

// Parses a request head (the request line and headers, without the empty
// line that ends them); nothing on a malformed one.
std::optional<Request> parseHead(std::string_view head) {
  std::vector<std::string_view> lines;
  while (!head.empty()) {
    size_t newline = head.find('\n');
    std::string_view line = head.substr(0, newline);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (newline == std::string_view::npos) break;
    head.remove_prefix(newline + 1);
  }
  if (lines.empty()) return std::nullopt;

  // METHOD SP TARGET SP HTTP/1.x
  std::string_view requestLine = lines[0];
  size_t firstSpace = requestLine.find(' ');
  size_t lastSpace = requestLine.rfind(' ');
  if (firstSpace == std::string_view::npos || firstSpace == lastSpace) return std::nullopt;
  std::string_view method = requestLine.substr(0, firstSpace);
  std::string_view target = requestLine.substr(firstSpace + 1, lastSpace - firstSpace - 1);
  std::string_view version = requestLine.substr(lastSpace + 1);
  if (!isToken(method) || target.empty() || target.find(' ') != std::string_view::npos) {
    return std::nullopt;
  }
  if (version.size() != 8 || version.substr(0, 7) != "HTTP/1." || version[7] < '0' ||
      version[7] > '9') {
    return std::nullopt;
  }
  // A proxy may send the absolute form, http://host:port/path.
  if (startsWithIgnoreCase(target, "http://") || startsWithIgnoreCase(target, "https://")) {
    size_t slash = target.find('/', target.find("//") + 2);
    target = slash == std::string_view::npos ? std::string_view("/") : target.substr(slash);
  }
  if (target[0] != '/') return std::nullopt;

  Request request;
  request.method = method;
  request.path = target.substr(0, target.find_first_of("?#"));
  for (size_t i = 1; i < lines.size(); i++) {
    std::string_view line = lines[i];
    size_t colon = line.find(':');
    // No name, whitespace before the colon, or an obsolete folded line:
    // all to be rejected (RFC 9112, 5.1 and 5.2).
    if (colon == std::string_view::npos || !isToken(line.substr(0, colon))) return std::nullopt;
    if (equalsIgnoreCase(line.substr(0, colon), "accept")) {
      if (!request.accept.empty()) request.accept += ',';
      request.accept += trim(line.substr(colon + 1));
    }
  }
  return request;
}

// The length of the request head before the empty line that ends it, or
// nothing while it has not all arrived.
std::optional<size_t> headLength(std::string_view received) {
  size_t crlf = received.find("\r\n\r\n");
  size_t lf = received.find("\n\n");
  if (crlf == std::string_view::npos && lf == std::string_view::npos) return std::nullopt;
  return std::min(crlf, lf);
}

enum class HeadRead {
  kComplete,  // the head is in hand
  kRefused,   // answer with the response given instead
  kDropped,   // the client went away, or the server is stopping: just close
};

// Reads a request head, without the empty line that ends it, within
// kRequestTimeout of now and within kMaxRequestHead bytes.
HeadRead readHead(int fd, int stopFd, std::string* head, Response* refusal) {
  const Clock::time_point deadline = Clock::now() + kRequestTimeout;
  std::string received;
  for (;;) {
    Wait wait = waitFor(fd, POLLIN, stopFd, deadline);
    if (wait == Wait::kTimedOut) {
      *refusal = errorResponse(408, "Request Timeout");
      return HeadRead::kRefused;
    }
    if (wait != Wait::kReady) return HeadRead::kDropped;
    char buffer[2048];
    ssize_t got = recv(fd, buffer, sizeof buffer, 0);
    if (got == 0) return HeadRead::kDropped;
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      return HeadRead::kDropped;
    }
    received.append(buffer, static_cast<size_t>(got));
    std::optional<size_t> length = headLength(received);
    if (length.value_or(received.size()) > kMaxRequestHead) {
      *refusal = errorResponse(431, "Request Header Fields Too Large");
      return HeadRead::kRefused;
    }
    if (length) {
      *head = received.substr(0, *length);
      return HeadRead::kComplete;
    }
  }
}

// The answer to a complete request head.
Response respond(std::string_view head, const MetricsServer::Render& render, bool* withBody) {
  std::optional<Request> request = parseHead(head);
  if (!request) return errorResponse(400, "Bad Request");
  if (request->method != "GET" && request->method != "HEAD") {
    Response response = errorResponse(405, "Method Not Allowed");
    response.extraHeaders = "Allow: GET, HEAD\r\n";
    return response;
  }
  *withBody = request->method == "GET";
  Response response;
  if (request->path == "/metrics") {
    bool openMetrics = acceptsOpenMetrics(request->accept);
    try {
      response.body = render(openMetrics);
      response.contentType = openMetrics ? kOpenMetricsType : kPrometheusType;
    } catch (const std::exception& e) {
      response = errorResponse(500, "Internal Server Error");
      response.body += std::string(e.what()) + "\n";
    } catch (...) {  // nothing may escape the thread: that would terminate dtrace
      response = errorResponse(500, "Internal Server Error");
    }
  } else if (request->path == "/") {
    response.contentType = "text/html; charset=utf-8";
    response.body = kIndexPage;
  } else {
    response = errorResponse(404, "Not Found");
  }
  return response;
}

}  // namespace

Result<void> MetricsServer::checkAddress(const std::string& address) {
  Result<HostPort> split = splitAddress(address);
  if (!split) return split.error();
  Result<AddrInfoList> candidates = resolve(address, *split);
  if (!candidates) return candidates.error();
  return {};
}

Result<std::unique_ptr<MetricsServer>> MetricsServer::start(const std::string& address,
                                                            Render render) {
  Result<HostPort> split = splitAddress(address);
  if (!split) return split.error();
  Result<AddrInfoList> candidates = resolve(address, *split);
  if (!candidates) return candidates.error();

  // A name may resolve to several addresses (localhost: ::1 and
  // 127.0.0.1): serve on the first that binds.
  Error firstError;
  std::optional<Listener> listener;
  for (const addrinfo* candidate = candidates->get(); candidate; candidate = candidate->ai_next) {
    Result<Listener> attempt = listenOn(*candidate);
    if (attempt) {
      listener = std::move(*attempt);
      break;
    }
    if (firstError.message.empty()) firstError = attempt.error();
  }
  if (!listener) {
    if (firstError.message.empty()) {
      return makeError("cannot serve metrics on '" + address + "': no usable address");
    }
    return firstError;
  }

  Fd stopEvent(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK));
  if (!stopEvent) {
    return makeError("cannot serve metrics on " + listener->address + ": " + errnoText(errno));
  }
  try {
    return std::unique_ptr<MetricsServer>(new MetricsServer(std::move(listener->fd),
                                                            std::move(stopEvent), std::move(render),
                                                            listener->address, listener->port));
  } catch (const std::system_error& e) {  // no thread to be had
    return makeError("cannot serve metrics on " + listener->address + ": " + e.what());
  }
}

MetricsServer::MetricsServer(Fd listener, Fd stopEvent, Render render, std::string address,
                             uint16_t port)
    : listener_(std::move(listener)),
      stopEvent_(std::move(stopEvent)),
      render_(std::move(render)),
      address_(std::move(address)),
      port_(port) {
  thread_ = std::thread([this] { run(); });
}

MetricsServer::~MetricsServer() {
  if (thread_.joinable()) {
    uint64_t one = 1;
    // Cannot fail short of a counter overflow; the thread sees it in every poll.
    [[maybe_unused]] ssize_t written = write(stopEvent_.get(), &one, sizeof one);
    thread_.join();
  }
}

void MetricsServer::run() {
  for (;;) {
    pollfd fds[2] = {{listener_.get(), POLLIN, 0}, {stopEvent_.get(), POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[1].revents != 0) return;
    if (fds[0].revents == 0) continue;
    Fd client(accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK));
    if (!client) {
      // Out of descriptors or memory: the connection stays queued and the
      // listener readable, so back off instead of spinning.
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
        pollfd stop = {stopEvent_.get(), POLLIN, 0};
        if (poll(&stop, 1, 100) > 0) return;
      }
      continue;
    }
    serve(std::move(client));
  }
}

void MetricsServer::serve(Fd client) {
  const int fd = client.get();
  const int stopFd = stopEvent_.get();
  std::string head;
  Response response;
  bool withBody = true;
  switch (readHead(fd, stopFd, &head, &response)) {
    case HeadRead::kDropped:
      return;
    case HeadRead::kRefused:
      break;
    case HeadRead::kComplete:
      response = respond(head, render_, &withBody);
      break;
  }
  sendAll(fd, serialize(response, withBody), stopFd);
  // Closing with unread input (a request body) would reset the connection,
  // and the client could lose the response: end our side first and discard
  // what has already arrived.
  shutdown(fd, SHUT_WR);
  char discard[2048];
  while (recv(fd, discard, sizeof discard, 0) > 0) {
  }
}

}  // namespace dtrace::output
