#include "server/net/server.h"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <deque>
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

void Server::send(SessionId to, const Buffer& line) {
    if (released_ < hold_through_) held_.push_back(Held{hold_through_, to, line});
    else deliver(to, line);
}

void Server::close(SessionId to) {
    if (released_ < hold_through_) held_.push_back(Held{hold_through_, to, nullptr});
    else deliver_close(to);
}

void Server::deliver(SessionId to, const Buffer& line) {
    const auto it = connections_.find(to);
    if (it != connections_.end()) it->second->send(line);
}

void Server::deliver_close(SessionId to) {
    const auto it = connections_.find(to);
    if (it != connections_.end()) it->second->close_after_flush();
}

void Server::hold_until(std::uint64_t ticket) { hold_through_ = std::max(hold_through_, ticket); }

void Server::release(std::uint64_t ticket) {
    released_ = std::max(released_, ticket);
    while (!held_.empty() && held_.front().ticket <= released_) {
        const Held h = std::move(held_.front());
        held_.pop_front();
        if (h.line) deliver(h.to, h.line);
        else deliver_close(h.to);
    }
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
