// One client connection of the listener: reads bytes and frames NDJSON lines for the lobby,
// writes a capped queue of shared buffers (batched), pings and closes idle clients. An idle
// connection holds no read buffer: it waits for readiness and reads into the server's one.
#pragma once

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "protocol/framing.h"
#include "server/config/server_config.h"
#include "server/table/table.h"

namespace xq::server {

class Server;

// One client. The reader feeds framed lines to the lobby; the writer alone calls
// async_write, gathering queued buffers. Output beyond the cap drops the connection.
class Connection : public std::enable_shared_from_this<Connection> {
public:
    Connection(boost::asio::ip::tcp::socket socket, SessionId id, Server& server)
        : socket_(std::move(socket)), id_(id), server_(server), hello_timer_(socket_.get_executor()),
          idle_timer_(socket_.get_executor()) {}

    void start();
    void send(const Buffer& b);
    void close_after_flush();
    void abort(proto::LeaveReason reason);

    // Lines that wait for the store writer's commit of `ticket` (Server::route), kept in the
    // order sent; a null buffer is a close. Tickets only grow along the queue.
    void hold(std::uint64_t ticket, Buffer b) { held_.push_back(Held{ticket, std::move(b)}); }
    // The ticket the last held line waits for; 0 when none waits.
    std::uint64_t held_through() const { return held_.empty() ? 0 : held_.back().ticket; }
    // Sends (or closes) what waited for tickets up to `released`; true while more waits.
    bool release(std::uint64_t released);

private:
    // Waits until the socket is readable (reactor style: no buffer held while waiting).
    void read();
    // Reads what is there into the server's scratch buffer and feeds the lines on.
    void read_ready();
    // One timer for both idle steps: the ping after idle_ping of silence, the close after
    // idle_timeout. It re-checks the silence when it fires (reads do not touch the timer).
    void arm_idle();
    void idle_check();
    void write();
    void shutdown();
    // The lobby hears of it later, never from inside one of its own calls.
    void notify(proto::LeaveReason reason);

    boost::asio::ip::tcp::socket socket_;
    SessionId id_;
    Server& server_;
    boost::asio::steady_timer hello_timer_;
    boost::asio::steady_timer idle_timer_;
    std::chrono::steady_clock::time_point last_heard_{};
    bool pinged_ = false;  // a ping went out since the client was last heard
    std::int64_t ping_id_ = 0;
    proto::FrameReader frames_;
    std::vector<Buffer> queue_;     // front first; a vector allocates nothing while empty
    std::vector<Buffer> inflight_;
    std::vector<boost::asio::const_buffer> gather_;  // inflight_'s bytes, reused per write
    std::size_t queued_bytes_ = 0;
    bool writing_ = false;
    bool closing_ = false;
    bool dead_ = false;
    struct Held {
        std::uint64_t ticket;
        Buffer line;  // null: the close
    };
    std::vector<Held> held_;  // waiting for commits (empty nearly always: allocates nothing)
};

}  // namespace xq::server
