#include "server/discovery/discovery_responder.h"

#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/address.hpp>

namespace xq::server {

namespace asio = boost::asio;
using asio::ip::udp;

DiscoveryResponder::DiscoveryResponder(asio::io_context& io, StatusFn status)
    : socket_(io), status_(std::move(status)) {}

DiscoveryResponder::~DiscoveryResponder() {
    *alive_ = false;
    close();
}

std::string DiscoveryResponder::open(const std::string& bind_address, std::uint16_t port) {
    boost::system::error_code ec;
    auto address = asio::ip::make_address(bind_address, ec);
    if (ec) return "bad discovery bind address '" + bind_address + "': " + ec.message();
    udp::endpoint endpoint(address, port);
    socket_.open(endpoint.protocol(), ec);
    if (ec) return "cannot open UDP socket: " + ec.message();
    // Several servers on one host may all answer a broadcast on the same port.
    socket_.set_option(asio::socket_base::reuse_address(true), ec);
    socket_.bind(endpoint, ec);
    if (ec) {
        socket_.close();
        return "cannot listen for discovery on " + bind_address + ":" + std::to_string(port) + ": " + ec.message();
    }
    receive();
    return {};
}

void DiscoveryResponder::close() {
    boost::system::error_code ec;
    socket_.close(ec);
}

std::uint16_t DiscoveryResponder::port() const {
    boost::system::error_code ec;
    auto ep = socket_.local_endpoint(ec);
    return ec ? 0 : ep.port();
}

bool DiscoveryResponder::take_token() {
    auto now = std::chrono::steady_clock::now();
    if (now - window_start_ >= std::chrono::seconds(1)) {
        window_start_ = now;
        window_count_ = 0;
    }
    if (window_count_ >= MAX_DISCOVERY_REPLIES_PER_SECOND) return false;
    ++window_count_;
    return true;
}

void DiscoveryResponder::receive() {
    // The buffer is one byte larger than the cap, so an oversized datagram shows as such.
    socket_.async_receive_from(
        asio::buffer(buffer_), sender_, [this, alive = alive_](const boost::system::error_code& ec, std::size_t n) {
            if (!*alive || ec == asio::error::operation_aborted || !socket_.is_open()) return;
            if (!ec) {
                auto query = proto::decode_discovery_query(std::string_view(buffer_.data(), n));
                if (!query) {
                    ++refused_;
                } else if (sending_ || !take_token()) {
                    ++throttled_;
                } else {
                    DiscoveryStatus s = status_();
                    proto::DiscoveryReply r;
                    r.nonce = query->nonce;
                    r.name = s.name;
                    r.port = s.tcp_port;
                    r.protocol = s.protocol;
                    r.server_version = s.server_version;
                    r.tables = s.tables;
                    r.players = s.players;
                    r.password = s.password;
                    reply_ = proto::encode_discovery_reply(r);
                    sending_ = true;
                    // Only ever to the asker's own address: the server never broadcasts.
                    socket_.async_send_to(asio::buffer(reply_), sender_,
                                          [this, alive](const boost::system::error_code& send_ec, std::size_t) {
                                              if (!*alive) return;
                                              sending_ = false;
                                              if (!send_ec) ++answered_;
                                          });
                }
            }
            receive();
        });
}

}  // namespace xq::server
