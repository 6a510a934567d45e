// A TCP connection that speaks newline-framed text, on plain POSIX sockets (no Asio, no
// SFML): blocking connect with a timeout, whole-line writes, and incremental line reads
// driven by the caller's poll().
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace xq::client {

class LineSocket {
public:
    LineSocket() = default;
    ~LineSocket();
    LineSocket(const LineSocket&) = delete;
    LineSocket& operator=(const LineSocket&) = delete;

    // Connects to host:port, from the local address `source` when given (load tests spread
    // connections over 127.0.0.x). Returns "" on success, else a readable reason.
    std::string connect(const std::string& host, const std::string& port, int timeout_ms,
                        const std::string& source = {});
    // Shrinks the receive buffer (before connect) so a peer that never reads fills up fast.
    void set_receive_buffer(int bytes) { rcvbuf_ = bytes; }
    bool is_open() const { return fd_ >= 0; }
    int fd() const { return fd_; }

    // Writes text followed by '\n' (blocks until written or the peer fails). False on error.
    bool send_line(std::string_view text);
    // Writes bytes as they are (attack scripts send partial or oversized lines).
    bool send_raw(std::string_view bytes);

    // Reads what is available (call when poll() reports the fd readable) and appends every
    // complete line, without its '\n' (and '\r'), to `lines`. A line longer than max_line
    // bytes is replaced by an empty line marker and skipped. False on EOF or error.
    bool read_available(std::vector<std::string>& lines, std::size_t max_line);

    void close();

private:
    int fd_ = -1;
    int rcvbuf_ = 0;
    std::string buffer_;
    bool skipping_ = false;  // inside an over-long line
};

// Splits "host:port" ("[::1]:5050" for IPv6). Returns false when malformed.
bool split_host_port(std::string_view text, std::string& host, std::string& port);

}  // namespace xq::client
