// The network side of xiangqi-server: the TCP listener and one Connection per client
// (a reader that frames lines and a writer draining a capped queue of shared buffers).
// Everything runs on the io_context's one thread; the Lobby holds all game state.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

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
    void send_about(proto::TableId table, SessionId to, const Buffer& line) override;
    void close(SessionId to) override;
    void after_sent_about(proto::TableId table, std::function<void()> then) override;

    // Durable before said, with the store writer's tickets (store/store_writer.h): a line
    // waits only for the writes it depends on, and never overtakes an earlier line to the
    // same connection.
    // From now on the lines from `table` (send_about: its moves, results, snapshots) wait
    // until release() of a ticket >= `ticket`: a move's move_made leaves once it is committed.
    void hold_table(proto::TableId table, std::uint64_t ticket);
    // From now on every line and close waits until release() of `ticket` (a write that
    // concerns no one table: a tournament's state, an analysis).
    void hold_all(std::uint64_t ticket);
    // Everything held for tickets up to `ticket` goes out, in the order it was sent.
    void release(std::uint64_t ticket);
    // Connections with lines waiting for a commit.
    std::size_t waiting_connections() const { return waiting_.size(); }

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
    // Sends `line` (null: the close) to `to` now, or once `wait` and every line held before
    // it for that connection are released.
    void route(SessionId to, const Buffer& line, std::uint64_t wait);

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
    std::unordered_map<proto::TableId, std::uint64_t> table_holds_;  // a table's last pending ticket
    std::vector<SessionId> waiting_;  // connections with held lines (Connection::hold)
    std::uint64_t hold_all_ = 0;      // every line waits for this ticket
    std::uint64_t released_ = 0;      // the largest ticket released
    struct AfterRelease {
        std::uint64_t ticket;
        std::function<void()> then;
    };
    std::vector<AfterRelease> after_release_;  // after_sent_about: run once their ticket is released
};

}  // namespace xq::server
