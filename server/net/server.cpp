#include "server/net/server.h"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <vector>

#include "server/net/connection.h"

namespace xq::server {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

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
            if (const auto refusal = admit_(address)) {
                // One short line on a fresh socket fits its buffer: the write does not block.
                boost::system::error_code ignored;
                asio::write(socket, asio::buffer(proto::encode_line(*refusal)), ignored);
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

void Server::send(SessionId to, const Buffer& line) { route(to, line, hold_all_); }

void Server::send_about(proto::TableId table, SessionId to, const Buffer& line) {
    std::uint64_t wait = hold_all_;
    if (!table_holds_.empty())
        if (const auto it = table_holds_.find(table); it != table_holds_.end()) wait = std::max(wait, it->second);
    route(to, line, wait);
}

void Server::close(SessionId to) { route(to, nullptr, hold_all_); }

void Server::after_sent_about(proto::TableId table, std::function<void()> then) {
    // The lines about `table` sent so far wait for at most this ticket (send_about).
    std::uint64_t wait = hold_all_;
    if (const auto it = table_holds_.find(table); it != table_holds_.end()) wait = std::max(wait, it->second);
    if (wait <= released_) {
        then();
        return;
    }
    after_release_.push_back({wait, std::move(then)});
}

void Server::route(SessionId to, const Buffer& line, std::uint64_t wait) {
    const auto it = connections_.find(to);
    if (it == connections_.end()) return;
    Connection& c = *it->second;
    const std::uint64_t before = c.held_through();  // 0: nothing held
    if (std::max(wait, before) <= released_) {
        if (line) c.send(line);
        else c.close_after_flush();
        return;
    }
    if (before == 0) waiting_.push_back(to);
    c.hold(std::max(wait, before), line);
}

void Server::hold_table(proto::TableId table, std::uint64_t ticket) {
    std::uint64_t& t = table_holds_[table];
    t = std::max(t, ticket);
}

void Server::hold_all(std::uint64_t ticket) { hold_all_ = std::max(hold_all_, ticket); }

void Server::release(std::uint64_t ticket) {
    if (ticket <= released_) return;
    released_ = ticket;
    std::erase_if(table_holds_, [this](const auto& e) { return e.second <= released_; });
    // Sending never calls back into the server (a dropped connection is posted), so
    // waiting_ and connections_ stay as they are during the walk.
    std::size_t kept = 0;
    for (const SessionId s : waiting_) {
        const auto it = connections_.find(s);
        if (it != connections_.end() && it->second->release(released_)) waiting_[kept++] = s;
    }
    waiting_.resize(kept);
    // What waited for these lines to leave (a table's clock), in the order it was asked; it
    // may send and ask again, so the due ones are taken out first.
    std::vector<std::function<void()>> due;
    std::size_t left = 0;
    for (std::size_t i = 0; i < after_release_.size(); ++i) {
        if (after_release_[i].ticket <= released_) due.push_back(std::move(after_release_[i].then));
        else if (left++ != i) after_release_[left - 1] = std::move(after_release_[i]);
    }
    after_release_.resize(left);
    for (auto& then : due) then();
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
    const Buffer told = std::make_shared<const std::string>(
        proto::encode_line(proto::Error{proto::ErrorCode::Banned, "the operator banned your address", "", 0}));
    std::size_t n = 0;
    for (const auto& [id, address] : addresses_)
        if (address == ip) {
            send(id, told);
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
