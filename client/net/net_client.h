// A TCP connection carrying newline-delimited text, run on its own thread so the frame
// never waits on the network. The UI thread queues lines out and drains events in.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace xq::client {

// Same cap as the protocol's frame limit: a longer line closes the connection.
constexpr std::size_t MAX_LINE_BYTES = 16 * 1024;
constexpr int CONNECT_TIMEOUT_MS = 5000;

struct NetEvent {
    enum class Kind { Connected, Line, Closed };
    Kind kind = Kind::Line;
    std::string text;  // the line (without newline), or why the connection closed
    // When the network thread read it: clocks run from there, not from the frame that
    // handles it (a frame under load comes 100 ms and more later).
    std::chrono::steady_clock::time_point at{};
};

class NetClient {
public:
    NetClient();
    ~NetClient();
    NetClient(const NetClient&) = delete;
    NetClient& operator=(const NetClient&) = delete;

    // Starts connecting in the background (any previous connection is closed first).
    void connect(const std::string& host, std::uint16_t port);
    // Queues one line; the newline is added here. Ignored when not connected.
    void send_line(std::string line);
    void close();
    // Everything that arrived since the last call, in order. Never blocks.
    std::vector<NetEvent> drain();
    bool active() const { return running_.load(); }

private:
    void run(std::string host, std::uint16_t port);
    void push(NetEvent e);
    void wake();

    std::thread thread_;
    std::atomic<bool> running_{false};
    std::atomic<bool> stop_{false};
    int wake_pipe_[2] = {-1, -1};
    std::mutex mutex_;
    std::deque<NetEvent> inbox_;
    std::deque<std::string> outbox_;
};

// Splits "host:port" (IPv4, name, or [IPv6]:port). Returns false when malformed.
bool parse_host_port(const std::string& text, std::string& host, std::uint16_t& port);

}  // namespace xq::client
