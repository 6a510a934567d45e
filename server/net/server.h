// The network side of xiangqi-server: the TCP listener and one Connection per client
// (a reader that frames lines and a writer draining a capped queue of shared buffers).
// Everything runs on the io_context's one thread; the Lobby holds all game state.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <memory>
#include <string>
#include <unordered_map>

#include "server/config/server_config.h"
#include "server/lobby/lobby.h"

namespace xq::server {

class Connection;

class Server final : public Outbox {
public:
    Server(boost::asio::io_context& io, const ServerConfig& config, AiPool* ai = nullptr);
    ~Server() override;
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // Binds config.bind:config.port and starts accepting. Returns the error, if any.
    boost::system::error_code listen();
    std::uint16_t port() const { return port_; }
    // Graceful stop: no new connections, every client told and closed, searches stopped.
    // io.run() returns once the last connection is gone.
    void stop();

    Lobby& lobby() { return lobby_; }
    std::size_t connection_count() const { return connections_.size(); }

    // Outbox
    void send(SessionId to, const Buffer& line) override;
    void close(SessionId to) override;

    // Durable before said: from now on every line and close waits (in order, for every
    // connection) until release() of a ticket >= `ticket`. The store writer's tickets
    // (store/store_writer.h): a move's move_made leaves once the move is committed.
    void hold_until(std::uint64_t ticket);
    // Everything held for tickets up to `ticket` goes out, in the order it was sent.
    void release(std::uint64_t ticket);
    std::size_t held_count() const { return held_.size(); }

    // From a Connection (always posted, never inside a lobby call).
    void connection_closed(SessionId id, proto::LeaveReason reason);
    const ServerConfig& config() const { return config_; }
    // One read buffer for every connection: all reads happen on the one I/O thread, and a
    // connection's bytes are framed before its read handler returns.
    std::vector<char>& read_buffer() { return read_buffer_; }
    // Admission by remote address (the runtime's per-address cap and IP bans, net/admission.h):
    // `admit(ip)` returns the error a refused connection gets before it is closed (`banned`
    // for a banned address, `server_full` for a cap), or nullopt to keep it; `release(ip)`
    // runs when an admitted connection closes.
    void set_admission(std::function<std::optional<proto::Error>(const std::string&)> admit,
                       std::function<void(const std::string&)> release) {
        admit_ = std::move(admit);
        release_ = std::move(release);
    }
    // Closes every connection from this address (an IP ban), each told `banned` first as
    // PROTOCOL.md promises; returns how many.
    std::size_t close_address(const std::string& ip);

private:
    void accept();
    void deliver(SessionId to, const Buffer& line);
    void deliver_close(SessionId to);

    struct Held {
        std::uint64_t ticket;
        SessionId to;
        Buffer line;  // null: a close
    };

    boost::asio::io_context& io_;
    const ServerConfig& config_;
    Lobby lobby_;
    boost::asio::ip::tcp::acceptor acceptor_;
    boost::asio::steady_timer stop_timer_;
    std::unordered_map<SessionId, std::shared_ptr<Connection>> connections_;
    SessionId next_id_ = 1;
    std::uint16_t port_ = 0;
    bool stopping_ = false;
    std::function<std::optional<proto::Error>(const std::string&)> admit_;
    std::function<void(const std::string&)> release_;
    std::unordered_map<SessionId, std::string> addresses_;  // kept only while admit_ is set
    boost::asio::steady_timer accept_backoff_;
    std::vector<char> read_buffer_ = std::vector<char>(READ_CHUNK_BYTES);
    std::deque<Held> held_;           // tickets in order: a hold only grows
    std::uint64_t hold_through_ = 0;  // the largest ticket held for
    std::uint64_t released_ = 0;      // the largest ticket released
};

}  // namespace xq::server
