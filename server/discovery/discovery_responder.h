// The server's side of LAN discovery: answers each well-formed UDP query with the server's
// name, TCP port, version and counts, sent back to the asker only. It never broadcasts and
// never speaks first; answers are rate-limited so it cannot be used as a traffic reflector.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/udp.hpp>
#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "protocol/discovery.h"

namespace xq::server {

// Answers per second across all askers; more queries in the same second are dropped.
constexpr int MAX_DISCOVERY_REPLIES_PER_SECOND = 50;

// What the answer says; asked from the owner (on the I/O thread) for every answer.
struct DiscoveryStatus {
    std::string name;
    std::uint16_t tcp_port = 0;
    int protocol = 1;
    std::string server_version;
    std::int64_t tables = 0;
    std::int64_t players = 0;
    bool password = false;
};

class DiscoveryResponder {
public:
    using StatusFn = std::function<DiscoveryStatus()>;

    DiscoveryResponder(boost::asio::io_context& io, StatusFn status);
    ~DiscoveryResponder();
    DiscoveryResponder(const DiscoveryResponder&) = delete;
    DiscoveryResponder& operator=(const DiscoveryResponder&) = delete;

    // Listens on UDP bind_address:port (port 0: any free port). Empty string on success,
    // else what went wrong (the server then runs without discovery).
    std::string open(const std::string& bind_address, std::uint16_t port);
    void close();
    bool is_open() const { return socket_.is_open(); }
    std::uint16_t port() const;

    std::uint64_t answered() const { return answered_; }
    std::uint64_t refused() const { return refused_; }      // malformed datagrams
    std::uint64_t throttled() const { return throttled_; }  // over the rate limit

private:
    void receive();
    bool take_token();

    boost::asio::ip::udp::socket socket_;
    StatusFn status_;
    std::array<char, proto::MAX_DISCOVERY_QUERY_BYTES + 1> buffer_{};
    boost::asio::ip::udp::endpoint sender_;
    std::string reply_;  // the answer in flight (one at a time keeps memory bounded)
    bool sending_ = false;
    std::chrono::steady_clock::time_point window_start_{};
    int window_count_ = 0;
    std::uint64_t answered_ = 0, refused_ = 0, throttled_ = 0;
    // Handlers still queued in the io_context after destruction check this and do nothing.
    std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace xq::server
