// The -x metrics HTTP server, over real sockets on the loopback interface.
#include "output/metrics_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "util/fd.h"

namespace dtrace::output {
namespace {

// Connects to the server on 127.0.0.1; an invalid Fd if it cannot.
Fd connectTo(uint16_t port) {
  Fd fd(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (!fd) return fd;
  // A test that went wrong must fail, not hang.
  timeval timeout{5, 0};
  setsockopt(fd.get(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd.get(), reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) return Fd();
  return fd;
}

struct Reply {
  int status = 0;
  std::string head;  // status line and headers
  std::string body;

  // A header's value, by case-insensitive name; empty if absent.
  std::string header(const std::string& name) const {
    std::string lowerHead = lower(head);
    size_t at = lowerHead.find("\r\n" + lower(name) + ":");
    if (at == std::string::npos) return {};
    size_t begin = head.find_first_not_of(' ', at + name.size() + 3);
    return head.substr(begin, head.find("\r\n", begin) - begin);
  }

  static std::string lower(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
  }
};

// Sends `request` as it is and reads the reply until the server closes.
Reply roundTrip(uint16_t port, const std::string& request) {
  Reply reply;
  Fd fd = connectTo(port);
  if (!fd) {
    ADD_FAILURE() << "cannot connect to port " << port;
    return reply;
  }
  EXPECT_EQ(send(fd.get(), request.data(), request.size(), MSG_NOSIGNAL),
            static_cast<ssize_t>(request.size()));
  std::string received;
  char buffer[4096];
  ssize_t got;
  while ((got = recv(fd.get(), buffer, sizeof buffer, 0)) > 0) received.append(buffer, got);
  EXPECT_EQ(got, 0) << "the server did not close the connection";
  size_t headEnd = received.find("\r\n\r\n");
  if (headEnd == std::string::npos || received.compare(0, 9, "HTTP/1.1 ") != 0) {
    ADD_FAILURE() << "not an HTTP response: " << received;
    return reply;
  }
  reply.status = std::stoi(received.substr(9, 3));
  reply.head = received.substr(0, headEnd);
  reply.body = received.substr(headEnd + 4);
  return reply;
}

Reply get(uint16_t port, const std::string& path, const std::string& extraHeaders = "") {
  return roundTrip(port,
                   "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n" + extraHeaders + "\r\n");
}

constexpr const char* kMetrics = "# TYPE dtrace_drops counter\ndtrace_drops 0\n";

// A server on a free loopback port, recording how render was called.
struct Served {
  std::atomic<int> calls{0};
  std::atomic<bool> lastOpenMetrics{false};
  std::unique_ptr<MetricsServer> server;

  Served() {
    auto started = MetricsServer::start("127.0.0.1:0", [this](bool openMetrics) {
      calls++;
      lastOpenMetrics = openMetrics;
      return std::string(openMetrics ? "dtrace_drops_total 0\n# EOF\n" : kMetrics);
    });
    if (!started) {
      ADD_FAILURE() << started.error().message;
      return;
    }
    server = std::move(*started);
  }
  uint16_t port() const { return server ? server->port() : 0; }
};

TEST(MetricsServer, GetMetricsReturnsTheRenderedBodyAsPrometheusText) {
  Served served;
  ASSERT_TRUE(served.server);
  EXPECT_NE(served.port(), 0);
  EXPECT_EQ(served.server->address(), "127.0.0.1:" + std::to_string(served.port()));

  Reply reply = get(served.port(), "/metrics");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, kMetrics);
  EXPECT_EQ(reply.header("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(reply.header("Content-Length"), std::to_string(std::string(kMetrics).size()));
  EXPECT_EQ(served.calls, 1);
  EXPECT_FALSE(served.lastOpenMetrics);
}

TEST(MetricsServer, QueryStringIsIgnored) {
  Served served;
  ASSERT_TRUE(served.server);
  Reply reply = get(served.port(), "/metrics?name[]=dtrace_drops");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, kMetrics);
}

TEST(MetricsServer, OpenMetricsAcceptHeaderAsksRenderForOpenMetrics) {
  Served served;
  ASSERT_TRUE(served.server);
  // What Prometheus itself sends, with the header name in another case.
  Reply reply = get(served.port(), "/metrics",
                    "accept: application/openmetrics-text;version=1.0.0,"
                    "application/openmetrics-text;version=0.0.1;q=0.75,"
                    "text/plain;version=0.0.4;q=0.5,*/*;q=0.1\r\n");
  EXPECT_EQ(reply.status, 200);
  EXPECT_TRUE(served.lastOpenMetrics);
  EXPECT_EQ(reply.body, "dtrace_drops_total 0\n# EOF\n");
  EXPECT_EQ(reply.header("Content-Type"),
            "application/openmetrics-text; version=1.0.0; charset=utf-8");
}

TEST(MetricsServer, OpenMetricsRefusedWithQZeroGetsText) {
  Served served;
  ASSERT_TRUE(served.server);
  Reply reply =
      get(served.port(), "/metrics", "Accept: text/plain, application/openmetrics-text;q=0\r\n");
  EXPECT_EQ(reply.status, 200);
  EXPECT_FALSE(served.lastOpenMetrics);
  EXPECT_EQ(reply.header("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
}

TEST(MetricsServer, HeadMetricsHasHeadersButNoBody) {
  Served served;
  ASSERT_TRUE(served.server);
  Reply reply = roundTrip(served.port(), "HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.body, "");
  EXPECT_EQ(reply.header("Content-Length"), std::to_string(std::string(kMetrics).size()));
}

TEST(MetricsServer, IndexPageLinksToMetrics) {
  Served served;
  ASSERT_TRUE(served.server);
  Reply reply = get(served.port(), "/");
  EXPECT_EQ(reply.status, 200);
  EXPECT_EQ(reply.header("Content-Type"), "text/html; charset=utf-8");
  EXPECT_NE(reply.body.find("href=\"/metrics\""), std::string::npos) << reply.body;
  EXPECT_EQ(served.calls, 0);
}

TEST(MetricsServer, UnknownPathIsNotFound) {
  Served served;
  ASSERT_TRUE(served.server);
  EXPECT_EQ(get(served.port(), "/nope").status, 404);
  EXPECT_EQ(get(served.port(), "/metrics/").status, 404);
  EXPECT_EQ(served.calls, 0);
}

TEST(MetricsServer, OtherMethodsAreNotAllowed) {
  Served served;
  ASSERT_TRUE(served.server);
  Reply reply =
      roundTrip(served.port(), "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc");
  EXPECT_EQ(reply.status, 405);
  EXPECT_EQ(reply.header("Allow"), "GET, HEAD");
  EXPECT_EQ(served.calls, 0);
}

TEST(MetricsServer, MalformedRequestsAreBadRequests) {
  Served served;
  ASSERT_TRUE(served.server);
  EXPECT_EQ(roundTrip(served.port(), "GET\r\n\r\n").status, 400);
  EXPECT_EQ(roundTrip(served.port(), "GET /metrics\r\n\r\n").status, 400);
  EXPECT_EQ(roundTrip(served.port(), "GET /metrics SPDY/3\r\n\r\n").status, 400);
  EXPECT_EQ(roundTrip(served.port(), "GET metrics HTTP/1.1\r\n\r\n").status, 400);
  EXPECT_EQ(roundTrip(served.port(), "GET /metrics HTTP/1.1\r\nno colon\r\n\r\n").status, 400);
  EXPECT_EQ(roundTrip(served.port(), "GET /metrics HTTP/1.1\r\nAccept : x\r\n\r\n").status, 400);
  EXPECT_EQ(served.calls, 0);
  // Still serving after all that.
  EXPECT_EQ(get(served.port(), "/metrics").status, 200);
}

TEST(MetricsServer, OversizedRequestHeadIsRefused) {
  Served served;
  ASSERT_TRUE(served.server);
  Reply reply =
      get(served.port(), "/metrics", "X-Padding: " + std::string(16 * 1024, 'a') + "\r\n");
  EXPECT_EQ(reply.status, 431);
  EXPECT_EQ(served.calls, 0);
}

TEST(MetricsServer, RenderThatThrowsIsAServerError) {
  auto started = MetricsServer::start(
      "127.0.0.1:0", [](bool) -> std::string { throw std::runtime_error("no snapshot"); });
  ASSERT_TRUE(started) << started.error().message;
  Reply reply = get((*started)->port(), "/metrics");
  EXPECT_EQ(reply.status, 500);
  EXPECT_EQ(get((*started)->port(), "/").status, 200);  // and the thread lives on
}

TEST(MetricsServer, BarePortBindsLoopback) {
  auto started = MetricsServer::start("0", [](bool) { return std::string(kMetrics); });
  ASSERT_TRUE(started) << started.error().message;
  EXPECT_EQ((*started)->address(), "127.0.0.1:" + std::to_string((*started)->port()));
  EXPECT_EQ(get((*started)->port(), "/metrics").body, kMetrics);
}

TEST(MetricsServer, HostNamesResolve) {
  auto started = MetricsServer::start("localhost:0", [](bool) { return std::string(kMetrics); });
  ASSERT_TRUE(started) << started.error().message;
  EXPECT_NE((*started)->port(), 0);
}

TEST(MetricsServer, BracketedIpv6Address) {
  auto started = MetricsServer::start("[::1]:0", [](bool) { return std::string(kMetrics); });
  if (!started) GTEST_SKIP() << "no IPv6 loopback: " << started.error().message;
  EXPECT_EQ((*started)->address(), "[::1]:" + std::to_string((*started)->port()));
}

TEST(MetricsServer, BadAddressesFailToStart) {
  for (const char* address : {"", "http", "65536", "-1", "127.0.0.1:", "127.0.0.1:http", "::1:9464",
                              "[::1]9464", "[::1:9464", "[]:9464", "1.2.3.4:99999"}) {
    auto started = MetricsServer::start(address, [](bool) { return std::string(); });
    ASSERT_FALSE(started) << "'" << address << "' started";
    EXPECT_EQ(
        started.error().message.rfind("cannot serve metrics on '" + std::string(address) + "'", 0),
        0u)
        << started.error().message;
  }
}

TEST(MetricsServer, SecondServerOnTheSamePortFailsNamingTheAddress) {
  Served first;
  ASSERT_TRUE(first.server);
  std::string address = "127.0.0.1:" + std::to_string(first.port());
  auto second = MetricsServer::start(address, [](bool) { return std::string(); });
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().message,
            "cannot serve metrics on " + address + ": Address already in use");
  EXPECT_EQ(get(first.port(), "/metrics").status, 200);  // the first is unharmed
}

TEST(MetricsServer, DestructorReturnsPromptlyWithAnIdleClient) {
  Served served;
  ASSERT_TRUE(served.server);
  Fd idle = connectTo(served.port());
  ASSERT_TRUE(idle);
  // Let the server accept it and wait on its request.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto before = std::chrono::steady_clock::now();
  served.server.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(1));
  // The server closed its end without answering.
  char byte;
  EXPECT_EQ(recv(idle.get(), &byte, 1, 0), 0);
}

TEST(MetricsServer, ManyScrapesInARow) {
  Served served;
  ASSERT_TRUE(served.server);
  for (int i = 0; i < 50; i++) ASSERT_EQ(get(served.port(), "/metrics").status, 200);
  EXPECT_EQ(served.calls, 50);
}

}  // namespace
}  // namespace dtrace::output
