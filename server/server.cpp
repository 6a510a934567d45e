#include "server/server.h"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <spdlog/spdlog.h>

#include <array>
#include <deque>
#include <vector>

#include "protocol/framing.h"

namespace xq::server {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

// One client. The reader feeds framed lines to the lobby; the writer alone calls
// async_write, gathering queued buffers. Output beyond the cap drops the connection.
class Connection : public std::enable_shared_from_this<Connection> {
public:
    Connection(tcp::socket socket, SessionId id, Server& server)
        : socket_(std::move(socket)), id_(id), server_(server), hello_timer_(socket_.get_executor()),
          idle_timer_(socket_.get_executor()) {}

    void start() {
        hello_timer_.expires_after(server_.config().hello_timeout);
        hello_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
            if (!ec && !self->dead_) self->server_.lobby().hello_timeout(self->id_);
        });
        last_heard_ = std::chrono::steady_clock::now();
        arm_idle();
        read();
    }

    void send(const Buffer& b) {
        if (dead_ || closing_) return;
        if (queued_bytes_ + b->size() > server_.config().max_queue_bytes) {
            spdlog::warn("session {}: {} bytes unsent (client not reading), dropping it", id_, queued_bytes_);
            abort(proto::LeaveReason::Dropped);
            return;
        }
        queued_bytes_ += b->size();
        queue_.push_back(b);
        if (!writing_) write();
    }

    void close_after_flush() {
        if (dead_ || closing_) return;
        closing_ = true;
        if (!writing_) shutdown();
    }

    void abort(proto::LeaveReason reason) {
        if (dead_) return;
        dead_ = true;
        boost::system::error_code ignored;
        socket_.close(ignored);
        hello_timer_.cancel();
        idle_timer_.cancel();
        notify(reason);
    }

private:
    void read() {
        socket_.async_read_some(asio::buffer(buf_), [self = shared_from_this()](const boost::system::error_code& ec,
                                                                                 std::size_t n) {
            if (self->dead_) return;
            if (ec) {
                self->abort(proto::LeaveReason::Disconnected);
                return;
            }
            self->last_heard_ = std::chrono::steady_clock::now();  // any bytes count as life
            self->pinged_ = false;
            Lobby& lobby = self->server_.lobby();
            const SessionId id = self->id_;
            self->frames_.feed(
                std::string_view(self->buf_.data(), n), [&](std::string_view line) { lobby.on_line(id, line); },
                [&] { lobby.on_oversized(id); });
            if (!self->dead_ && !self->closing_) self->read();
        });
    }

    // One timer for both idle steps: the ping after idle_ping of silence, the close after
    // idle_timeout. It re-checks the silence when it fires (reads do not touch the timer).
    void arm_idle() {
        const auto& cfg = server_.config();
        if (cfg.idle_ping.count() <= 0 && cfg.idle_timeout.count() <= 0) return;
        auto at = std::chrono::steady_clock::time_point::max();
        if (cfg.idle_timeout.count() > 0) at = last_heard_ + cfg.idle_timeout;
        if (cfg.idle_ping.count() > 0 && !pinged_) at = std::min(at, last_heard_ + cfg.idle_ping);
        idle_timer_.expires_at(at);
        idle_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
            if (ec || self->dead_) return;
            self->idle_check();
        });
    }

    void idle_check() {
        const auto& cfg = server_.config();
        const auto silent = std::chrono::steady_clock::now() - last_heard_;
        if (closing_) {
            // The idle error was queued but the client is not reading it either.
            abort(proto::LeaveReason::Dropped);
            return;
        }
        if (cfg.idle_timeout.count() > 0 && silent >= cfg.idle_timeout) {
            server_.lobby().idle_timeout(id_);
            close_after_flush();
            idle_timer_.expires_after(IDLE_CLOSE_GRACE);
            idle_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
                if (!ec && !self->dead_) self->abort(proto::LeaveReason::Dropped);
            });
            return;
        }
        if (cfg.idle_ping.count() > 0 && !pinged_ && silent >= cfg.idle_ping) {
            pinged_ = true;
            send(std::make_shared<const std::string>(proto::encode_line(proto::ServerMessage{proto::Ping{++ping_id_}})));
        }
        if (!dead_ && !closing_) arm_idle();
    }

    void write() {
        writing_ = true;
        inflight_.clear();
        std::vector<asio::const_buffer> bufs;
        while (!queue_.empty() && inflight_.size() < MAX_WRITE_BATCH) {
            inflight_.push_back(std::move(queue_.front()));
            queue_.pop_front();
            bufs.emplace_back(asio::buffer(*inflight_.back()));
        }
        asio::async_write(socket_, bufs, [self = shared_from_this()](const boost::system::error_code& ec, std::size_t n) {
            self->writing_ = false;
            if (self->dead_) return;
            if (ec) {
                self->abort(proto::LeaveReason::Disconnected);
                return;
            }
            self->queued_bytes_ -= n;
            self->inflight_.clear();
            if (!self->queue_.empty()) self->write();
            else if (self->closing_) self->shutdown();
        });
    }

    void shutdown() {
        boost::system::error_code ignored;
        socket_.shutdown(tcp::socket::shutdown_both, ignored);
        abort(proto::LeaveReason::Disconnected);
    }

    // The lobby hears of it later, never from inside one of its own calls.
    void notify(proto::LeaveReason reason) {
        asio::post(socket_.get_executor(),
                   [self = shared_from_this(), reason] { self->server_.connection_closed(self->id_, reason); });
    }

    tcp::socket socket_;
    SessionId id_;
    Server& server_;
    asio::steady_timer hello_timer_;
    asio::steady_timer idle_timer_;
    std::chrono::steady_clock::time_point last_heard_{};
    bool pinged_ = false;  // a ping went out since the client was last heard
    std::int64_t ping_id_ = 0;
    proto::FrameReader frames_;
    std::array<char, READ_CHUNK_BYTES> buf_{};
    std::deque<Buffer> queue_;
    std::vector<Buffer> inflight_;
    std::size_t queued_bytes_ = 0;
    bool writing_ = false;
    bool closing_ = false;
    bool dead_ = false;
};

Server::Server(asio::io_context& io, const ServerConfig& config, AiPool* ai)
    : io_(io), config_(config), lobby_(io, config, *this, ai), acceptor_(io), stop_timer_(io), accept_backoff_(io) {}

Server::~Server() = default;

boost::system::error_code Server::listen() {
    boost::system::error_code ec;
    const auto addr = asio::ip::make_address(config_.bind, ec);
    if (ec) return ec;
    const tcp::endpoint ep(addr, config_.port);
    acceptor_.open(ep.protocol(), ec);
    if (ec) return ec;
    acceptor_.set_option(tcp::acceptor::reuse_address(true), ec);
    acceptor_.bind(ep, ec);
    if (ec) return ec;
    acceptor_.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) return ec;
    port_ = acceptor_.local_endpoint().port();
    accept();
    return {};
}

void Server::accept() {
    acceptor_.async_accept([this](const boost::system::error_code& ec, tcp::socket socket) {
        if (stopping_) return;
        if (ec) {
            if (ec == asio::error::operation_aborted) return;
            // Out of descriptors and the like: keep serving the others, and wait a moment
            // before the next accept so a full descriptor table does not spin the loop.
            spdlog::warn("accept failed: {}", ec.message());
            accept_backoff_.expires_after(ACCEPT_BACKOFF);
            accept_backoff_.async_wait([this](const boost::system::error_code& e) {
                if (!e && !stopping_) accept();
            });
            return;
        }
        std::string address;
        {
            boost::system::error_code aec;
            const auto remote = socket.remote_endpoint(aec);
            address = aec ? std::string() : remote.address().to_string();
        }
        if (admit_) {
            if (const std::string why = admit_(address); !why.empty()) {
                // One short line on a fresh socket fits its buffer: the write does not block.
                boost::system::error_code ignored;
                asio::write(socket, asio::buffer(proto::encode_line(proto::Error{proto::ErrorCode::ServerFull, why, "", 0})),
                            ignored);
                socket.close(ignored);
                accept();
                return;
            }
        }
        boost::system::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        if (config_.socket_send_buffer > 0)
            socket.set_option(asio::socket_base::send_buffer_size(config_.socket_send_buffer), ignored);
        const SessionId id = next_id_++;
        if (admit_) addresses_.emplace(id, address);
        auto conn = std::make_shared<Connection>(std::move(socket), id, *this);
        connections_.emplace(id, conn);
        conn->start();
        lobby_.on_connect(id, address);
        accept();
    });
}

void Server::send(SessionId to, const Buffer& line) {
    const auto it = connections_.find(to);
    if (it != connections_.end()) it->second->send(line);
}

void Server::close(SessionId to) {
    const auto it = connections_.find(to);
    if (it != connections_.end()) it->second->close_after_flush();
}

void Server::connection_closed(SessionId id, proto::LeaveReason reason) {
    if (connections_.erase(id) == 0) return;
    if (auto a = addresses_.find(id); a != addresses_.end()) {
        if (release_) release_(a->second);
        addresses_.erase(a);
    }
    lobby_.on_disconnect(id, reason);
    if (stopping_ && connections_.empty()) stop_timer_.cancel();
}

std::size_t Server::close_address(const std::string& ip) {
    std::size_t n = 0;
    for (const auto& [id, address] : addresses_)
        if (address == ip) {
            close(id);
            ++n;
        }
    return n;
}

void Server::stop() {
    if (stopping_) return;
    stopping_ = true;
    spdlog::info("shutting down: {} connections", connections_.size());
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    accept_backoff_.cancel();
    lobby_.shutdown();
    if (connections_.empty()) return;
    // Clients that do not take their last line within 2 s are cut off.
    stop_timer_.expires_after(std::chrono::seconds(2));
    stop_timer_.async_wait([this](const boost::system::error_code& ec) {
        if (ec) return;
        std::vector<std::shared_ptr<Connection>> left;
        for (auto& [id, c] : connections_) left.push_back(c);
        for (auto& c : left) c->abort(proto::LeaveReason::Disconnected);
    });
}

}  // namespace xq::server
