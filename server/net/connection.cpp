#include "server/net/connection.h"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <span>

#include "server/lobby/lobby.h"
#include "server/net/server.h"

namespace xq::server {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

void Connection::start() {
    hello_timer_.expires_after(server_.config().hello_timeout);
    hello_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
        if (!ec && !self->dead_) self->server_.lobby().hello_timeout(self->id_);
    });
    last_heard_ = std::chrono::steady_clock::now();
    boost::system::error_code ignored;
    socket_.non_blocking(true, ignored);  // read_some returns would_block instead of waiting
    arm_idle();
    read();
}

void Connection::send(const Buffer& b) {
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

bool Connection::release(std::uint64_t released) {
    std::size_t n = 0;
    for (; n < held_.size() && held_[n].ticket <= released; ++n) {
        if (held_[n].line) send(held_[n].line);
        else close_after_flush();
    }
    held_.erase(held_.begin(), held_.begin() + static_cast<std::ptrdiff_t>(n));
    if (held_.empty()) held_.shrink_to_fit();  // a connection that waited once keeps nothing
    return !held_.empty();
}

void Connection::close_after_flush() {
    if (dead_ || closing_) return;
    closing_ = true;
    if (!writing_) shutdown();
}

void Connection::abort(proto::LeaveReason reason) {
    if (dead_) return;
    dead_ = true;
    boost::system::error_code ignored;
    socket_.close(ignored);
    hello_timer_.cancel();
    idle_timer_.cancel();
    notify(reason);
}

void Connection::read() {
    socket_.async_wait(tcp::socket::wait_read, [self = shared_from_this()](const boost::system::error_code& ec) {
        if (self->dead_) return;
        if (ec) {
            self->abort(proto::LeaveReason::Disconnected);
            return;
        }
        self->read_ready();
    });
}

void Connection::read_ready() {
    std::vector<char>& buf = server_.read_buffer();
    boost::system::error_code ec;
    const std::size_t n = socket_.read_some(asio::buffer(buf), ec);
    if (ec == asio::error::would_block || ec == asio::error::try_again) {
        read();  // a stale readiness: nothing there after all
        return;
    }
    if (ec) {
        abort(proto::LeaveReason::Disconnected);  // end of stream included
        return;
    }
    last_heard_ = std::chrono::steady_clock::now();  // any bytes count as life
    pinged_ = false;
    Lobby& lobby = server_.lobby();
    const SessionId id = id_;
    frames_.feed(
        std::string_view(buf.data(), n), [&](std::string_view line) { lobby.on_line(id, line); },
        [&] { lobby.on_oversized(id); });
    if (dead_ || closing_) return;
    if (n < buf.size()) {
        // Drained: the next bytes raise a new readiness, seen once this handler returns
        // (the one I/O thread polls only between handlers).
        read();
    } else {
        // Maybe more: read it after the other connections had their turn, as before.
        asio::post(socket_.get_executor(), [self = shared_from_this()] {
            if (!self->dead_ && !self->closing_) self->read_ready();
        });
    }
}

void Connection::arm_idle() {
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

void Connection::idle_check() {
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

void Connection::write() {
    writing_ = true;
    inflight_.clear();
    gather_.clear();
    const std::size_t batch = std::min(queue_.size(), MAX_WRITE_BATCH);
    for (std::size_t i = 0; i < batch; ++i) {
        inflight_.push_back(std::move(queue_[i]));
        gather_.emplace_back(asio::buffer(*inflight_.back()));
    }
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(batch));
    // A span: the write keeps a view of gather_, not a copy of it.
    asio::async_write(socket_, std::span<const asio::const_buffer>(gather_), [self = shared_from_this()](const boost::system::error_code& ec, std::size_t n) {
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

void Connection::shutdown() {
    boost::system::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    abort(proto::LeaveReason::Disconnected);
}

void Connection::notify(proto::LeaveReason reason) {
    asio::post(socket_.get_executor(),
               [self = shared_from_this(), reason] { self->server_.connection_closed(self->id_, reason); });
}

}  // namespace xq::server
