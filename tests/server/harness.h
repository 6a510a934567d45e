// Test helpers: an in-process server on 127.0.0.1 with an ephemeral port, run on its own
// thread, and a blocking line client with timeouts. Loopback only.
#pragma once

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>

#include <poll.h>
#include <sys/socket.h>

#include <boost/asio/write.hpp>

#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <variant>
#include <vector>

#include "protocol/codec.h"
#include "protocol/framing.h"
#include <spdlog/spdlog.h>

#include "server/ai/ai_pool.h"
#include "server/net/server.h"

namespace xq::test {

using namespace std::chrono_literals;
namespace asio = boost::asio;

inline server::ServerConfig test_config() {
    server::ServerConfig c;
    c.bind = "127.0.0.1";
    c.port = 0;
    c.ai_min_move = std::chrono::milliseconds(0);
    c.ai_workers = 1;
    c.ai_hash_mb = 1;
    return c;
}

class TestServer {
public:
    explicit TestServer(server::ServerConfig config = test_config(), bool with_ai = true) : config_(std::move(config)) {
        spdlog::set_level(spdlog::level::warn);
        if (with_ai) ai_.emplace(config_.ai_workers, config_.ai_hash_mb);
        server_ = std::make_unique<server::Server>(io_, config_, ai_ ? &*ai_ : nullptr);
        const auto ec = server_->listen();
        EXPECT_FALSE(ec) << ec.message();
        thread_ = std::thread([this] { io_.run(); });
    }
    ~TestServer() {
        stop();
        ai_.reset();
    }
    // Stops the server and joins its thread (idempotent). Queued handlers stay in the
    // io_context, alive until the TestServer goes.
    void stop() {
        if (!thread_.joinable()) return;
        asio::post(io_, [this] { server_->stop(); });
        thread_.join();
    }
    std::uint16_t port() const { return server_->port(); }
    // Runs f on the server thread and waits for it (to inspect state safely).
    template <class F>
    auto on_server(F f) {
        std::promise<decltype(f(*server_))> p;
        asio::post(io_, [&] { p.set_value(f(*server_)); });
        return p.get_future().get();
    }

private:
    server::ServerConfig config_;
    asio::io_context io_{1};
    std::optional<server::AiPool> ai_;
    std::unique_ptr<server::Server> server_;
    std::thread thread_;
};

class Client {
public:
    explicit Client(std::uint16_t port, int rcvbuf = 0) : socket_(io_) {
        socket_.open(asio::ip::tcp::v4());
        if (rcvbuf > 0) socket_.set_option(asio::socket_base::receive_buffer_size(rcvbuf));
        socket_.connect({asio::ip::make_address("127.0.0.1"), port});
        socket_.set_option(asio::ip::tcp::no_delay(true));
    }

    // Connects and completes the handshake; the lobby lines after welcome are consumed.
    static std::unique_ptr<Client> login(std::uint16_t port, const std::string& name) {
        auto c = std::make_unique<Client>(port);
        c->send(proto::Hello{name, proto::PROTOCOL_VERSION, ""});
        c->welcome = c->expect<proto::Welcome>();
        c->expect<proto::Tables>();
        c->expect<proto::Users>();
        return c;
    }

    void send(const proto::ClientMessage& m) { raw(proto::encode_line(m)); }
    void raw(const std::string& bytes) {
        boost::system::error_code ec;
        asio::write(socket_, asio::buffer(bytes), ec);
    }

    // The next line as a message; nullopt on timeout or when the server closed.
    std::optional<proto::ServerMessage> next(std::chrono::milliseconds timeout = 5000ms) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            if (!lines_.empty()) {
                std::string line = std::move(lines_.front());
                lines_.erase(lines_.begin());
                auto d = proto::decode_server(line);
                EXPECT_TRUE(d.ok()) << "server sent an undecodable line: " << line;
                if (!d.ok()) return std::nullopt;
                return d.value();
            }
            if (closed_) return std::nullopt;
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0) return std::nullopt;
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

    // Skips other messages until a T arrives; fails the test on timeout, and on an `error`
    // met on the way (a test that expects an error asks for it with expect_error).
    template <class T>
    T expect(std::chrono::milliseconds timeout = 5000ms) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            auto m = next(std::max(left, 1ms));
            if (!m) {
                ADD_FAILURE() << "timed out waiting for " << T::TYPE;
                return T{};
            }
            if (auto* t = std::get_if<T>(&*m)) return *t;
            if constexpr (!std::is_same_v<T, proto::Error>) {
                if (const auto* e = std::get_if<proto::Error>(&*m))
                    ADD_FAILURE() << "unexpected error " << proto::error_code_name(e->code) << " (" << e->message
                                  << ") while waiting for " << T::TYPE;
            }
            skipped.push_back(*m);
        }
    }

    // Skips until the move_made that brings the game to `ply`.
    proto::MoveMade expect_ply(int ply, std::chrono::milliseconds timeout = 5000ms) {
        for (;;) {
            const auto mm = expect<proto::MoveMade>(timeout);
            if (mm.ply == ply || mm.ply == 0) return mm;
        }
    }

    proto::Error expect_error(proto::ErrorCode code) {
        const auto e = expect<proto::Error>();
        EXPECT_EQ(proto::error_code_name(e.code), proto::error_code_name(code)) << e.message;
        return e;
    }

    // Everything that arrives before the answer to a fresh ping: proves what was (not) sent.
    std::vector<proto::ServerMessage> until_pong() {
        const std::int64_t id = ++ping_id_;
        send(proto::Ping{id});
        std::vector<proto::ServerMessage> got;
        for (;;) {
            auto m = next();
            if (!m) {
                ADD_FAILURE() << "no pong";
                return got;
            }
            if (auto* p = std::get_if<proto::Pong>(&*m); p && p->id == id) return got;
            got.push_back(*m);
        }
    }

    // True once the server has closed the connection (reads everything that is left).
    bool wait_closed(std::chrono::milliseconds timeout = 5000ms) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (!closed_ && std::chrono::steady_clock::now() < deadline) {
            lines_.clear();
            next(100ms);
        }
        return closed_;
    }

    proto::Welcome welcome;
    std::vector<proto::ServerMessage> skipped;

private:
    asio::io_context io_;
    asio::ip::tcp::socket socket_;
    proto::FrameReader frames_{proto::MAX_LINE_BYTES};
    std::vector<std::string> lines_;
    bool closed_ = false;
    std::int64_t ping_id_ = 1000;
};

template <class T>
int count_of(const std::vector<proto::ServerMessage>& v) {
    int n = 0;
    for (const auto& m : v) n += std::holds_alternative<T>(m) ? 1 : 0;
    return n;
}

}  // namespace xq::test
