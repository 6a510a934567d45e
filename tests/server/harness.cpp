// The test server and line client of harness.h: everything that copies, moves or destroys a
// proto::ServerMessage is compiled here once (see the top of harness.h).
#include "harness.h"

#include <poll.h>
#include <sys/socket.h>

#include <boost/asio/write.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <iterator>

namespace xq::test {

server::ServerConfig test_config() {
    server::ServerConfig c;
    c.bind = "127.0.0.1";
    c.port = 0;
    c.ai_min_move = std::chrono::milliseconds(0);
    c.ai_workers = 1;
    c.ai_hash_mb = 1;
    return c;
}

void quiet_logs() { spdlog::set_level(spdlog::level::warn); }

void MessageDeleter::operator()(proto::ServerMessage* m) const { delete m; }

Messages::Messages() = default;
Messages::~Messages() = default;
Messages::Messages(Messages&&) noexcept = default;
Messages& Messages::operator=(Messages&&) noexcept = default;

void Messages::push_back(Received m) { items_.push_back(std::move(m)); }

void Messages::append(Messages&& more) {
    items_.insert(items_.end(), std::make_move_iterator(more.items_.begin()),
                  std::make_move_iterator(more.items_.end()));
    more.items_.clear();
}

void Messages::clear() { items_.clear(); }

TestServer::TestServer(server::ServerConfig config, bool with_ai) : config_(std::move(config)) {
    quiet_logs();
    if (with_ai) ai_.emplace(config_.ai_workers, config_.ai_hash_mb);
    server_ = std::make_unique<server::Server>(io_, config_, ai_ ? &*ai_ : nullptr);
    const auto ec = server_->listen();
    EXPECT_FALSE(ec) << ec.message();
    thread_ = std::thread([this] { io_.run(); });
}

TestServer::~TestServer() {
    stop();
    ai_.reset();
}

void TestServer::stop() {
    if (!thread_.joinable()) return;
    asio::post(io_, [this] { server_->stop(); });
    thread_.join();
}

Client::Client(std::uint16_t port, int rcvbuf) : socket_(io_) {
    socket_.open(asio::ip::tcp::v4());
    if (rcvbuf > 0) socket_.set_option(asio::socket_base::receive_buffer_size(rcvbuf));
    socket_.connect({asio::ip::make_address("127.0.0.1"), port});
    socket_.set_option(asio::ip::tcp::no_delay(true));
}

Client::~Client() = default;

std::unique_ptr<Client> Client::login(std::uint16_t port, const std::string& name) {
    auto c = std::make_unique<Client>(port);
    c->send(proto::Hello{name, proto::PROTOCOL_VERSION, ""});
    c->welcome = c->expect<proto::Welcome>();
    c->expect<proto::Tables>();
    c->expect<proto::Users>();
    return c;
}

void Client::send(const proto::ClientMessage& m) { raw(proto::encode_line(m)); }

void Client::raw(const std::string& bytes) {
    boost::system::error_code ec;
    asio::write(socket_, asio::buffer(bytes), ec);
}

Received Client::next(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (!lines_.empty()) {
            std::string line = std::move(lines_.front());
            lines_.erase(lines_.begin());
            auto d = proto::decode_server(line);
            EXPECT_TRUE(d.ok()) << "server sent an undecodable line: " << line;
            if (!d.ok()) return nullptr;
            return Received(new proto::ServerMessage(std::move(d.value())));
        }
        if (closed_) return nullptr;
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return nullptr;
        pollfd p{socket_.native_handle(), POLLIN, 0};
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
        char buf[65536];
        const ssize_t n = ::recv(socket_.native_handle(), buf, sizeof buf, 0);
        if (n <= 0) {
            closed_ = true;
            continue;
        }
        frames_.feed(
            std::string_view(buf, static_cast<std::size_t>(n)), [&](std::string_view l) { lines_.emplace_back(l); },
            [&] { ADD_FAILURE() << "server sent an oversized line"; });
    }
}

Received Client::expect_alternative(std::size_t index, std::string_view type, bool errors_fail,
                                    std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        Received m = next(std::max(left, 1ms));
        if (!m) {
            ADD_FAILURE() << "timed out waiting for " << type;
            return nullptr;
        }
        if (m->index() == index) return m;
        if (errors_fail) {
            if (const auto* e = std::get_if<proto::Error>(m.get()))
                ADD_FAILURE() << "unexpected error " << proto::error_code_name(e->code) << " (" << e->message
                              << ") while waiting for " << type;
        }
        skipped.push_back(std::move(m));
    }
}

proto::MoveMade Client::expect_ply(int ply, std::chrono::milliseconds timeout) {
    for (;;) {
        const auto mm = expect<proto::MoveMade>(timeout);
        if (mm.ply == ply || mm.ply == 0) return mm;
    }
}

proto::Error Client::expect_error(proto::ErrorCode code) {
    const auto e = expect<proto::Error>();
    EXPECT_EQ(proto::error_code_name(e.code), proto::error_code_name(code)) << e.message;
    return e;
}

Messages Client::until_pong() {
    const std::int64_t id = ++ping_id_;
    send(proto::Ping{id});
    Messages got;
    for (;;) {
        Received m = next();
        if (!m) {
            ADD_FAILURE() << "no pong";
            return got;
        }
        if (const auto* p = std::get_if<proto::Pong>(m.get()); p && p->id == id) return got;
        got.push_back(std::move(m));
    }
}

bool Client::wait_closed(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!closed_ && std::chrono::steady_clock::now() < deadline) {
        lines_.clear();
        next(100ms);
    }
    return closed_;
}

}  // namespace xq::test
