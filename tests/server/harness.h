// Test helpers: an in-process server on 127.0.0.1 with an ephemeral port, run on its own
// thread, and a blocking line client with timeouts. Loopback only.
//
// proto::ServerMessage is a std::variant of every server message: copying, moving or
// destroying one instantiates code for each of its alternatives, which cost each test file
// that did it 30-50 s of compiler time. So a received message lives behind Received (a
// unique_ptr whose deleter is defined in harness.cpp) and lists of them in Messages; the
// Client's code is in harness.cpp, compiled once. Tests read messages with std::get_if and
// std::holds_alternative, which instantiate nothing of the kind.
#pragma once

#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iterator>
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
#include "server/ai/ai_pool.h"
#include "server/net/server.h"

namespace xq::test {

using namespace std::chrono_literals;
namespace asio = boost::asio;

server::ServerConfig test_config();
// The server's log at warning level and above (what a TestServer sets).
void quiet_logs();

// Owns one received message; its deleter is out of line (see the top of this file).
struct MessageDeleter {
    void operator()(proto::ServerMessage* m) const;
};
using Received = std::unique_ptr<proto::ServerMessage, MessageDeleter>;

// Received messages in arrival order; iterating yields const proto::ServerMessage&.
class Messages {
public:
    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = proto::ServerMessage;
        using difference_type = std::ptrdiff_t;
        using pointer = const proto::ServerMessage*;
        using reference = const proto::ServerMessage&;
        const_iterator() = default;
        explicit const_iterator(std::vector<Received>::const_iterator it) : it_(it) {}
        const proto::ServerMessage& operator*() const { return **it_; }
        const proto::ServerMessage* operator->() const { return it_->get(); }
        const_iterator& operator++() {
            ++it_;
            return *this;
        }
        const_iterator operator++(int) {
            const_iterator old = *this;
            ++it_;
            return old;
        }
        bool operator==(const const_iterator&) const = default;

    private:
        std::vector<Received>::const_iterator it_;
    };

    Messages();
    ~Messages();
    Messages(Messages&&) noexcept;
    Messages& operator=(Messages&&) noexcept;

    void push_back(Received m);
    void append(Messages&& more);
    void clear();
    std::size_t size() const { return items_.size(); }
    bool empty() const { return items_.empty(); }
    const proto::ServerMessage& operator[](std::size_t i) const { return *items_[i]; }
    const_iterator begin() const { return const_iterator(items_.begin()); }
    const_iterator end() const { return const_iterator(items_.end()); }

private:
    std::vector<Received> items_;
};

// The position of T among proto::ServerMessage's alternatives.
template <class T, class V>
struct AlternativeIndex;
template <class T, class... Ts>
struct AlternativeIndex<T, std::variant<Ts...>> {
    static constexpr std::size_t value = [] {
        constexpr bool same[] = {std::is_same_v<T, Ts>...};
        for (std::size_t i = 0; i < sizeof...(Ts); ++i)
            if (same[i]) return i;
        return sizeof...(Ts);
    }();
    static_assert(value < sizeof...(Ts), "not a server message");
};

class TestServer {
public:
    explicit TestServer(server::ServerConfig config = test_config(), bool with_ai = true);
    ~TestServer();
    // Stops the server and joins its thread (idempotent). Queued handlers stay in the
    // io_context, alive until the TestServer goes.
    void stop();
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
    explicit Client(std::uint16_t port, int rcvbuf = 0);
    ~Client();

    // Connects and completes the handshake; the lobby lines after welcome are consumed.
    static std::unique_ptr<Client> login(std::uint16_t port, const std::string& name);

    void send(const proto::ClientMessage& m);
    // One request of a known type, encoded without building the variant (codec.h).
    template <class M>
    void send(const M& m) {
        raw(proto::encode_line_of(m));
    }
    void raw(const std::string& bytes);

    // The next line as a message; null on timeout or when the server closed.
    Received next(std::chrono::milliseconds timeout = 5000ms);

    // Skips other messages until a T arrives; fails the test on timeout, and on an `error`
    // met on the way (a test that expects an error asks for it with expect_error).
    template <class T>
    T expect(std::chrono::milliseconds timeout = 5000ms) {
        Received m = expect_alternative(AlternativeIndex<T, proto::ServerMessage>::value, T::TYPE,
                                        !std::is_same_v<T, proto::Error>, timeout);
        if (!m) return T{};
        return std::get<T>(std::move(*m));
    }

    // Skips until the move_made that brings the game to `ply`.
    proto::MoveMade expect_ply(int ply, std::chrono::milliseconds timeout = 5000ms);

    proto::Error expect_error(proto::ErrorCode code);

    // Everything that arrives before the answer to a fresh ping: proves what was (not) sent.
    Messages until_pong();

    // True once the server has closed the connection (reads everything that is left).
    bool wait_closed(std::chrono::milliseconds timeout = 5000ms);

    proto::Welcome welcome;
    Messages skipped;

private:
    // expect<T>'s body: the next message holding alternative `index`, others go to skipped
    // (an error among them fails the test when errors_fail); null after a failure.
    Received expect_alternative(std::size_t index, std::string_view type, bool errors_fail,
                                std::chrono::milliseconds timeout);

    asio::io_context io_;
    asio::ip::tcp::socket socket_;
    proto::FrameReader frames_{proto::MAX_LINE_BYTES};
    std::vector<std::string> lines_;
    bool closed_ = false;
    std::int64_t ping_id_ = 1000;
};

template <class T>
int count_of(const Messages& v) {
    int n = 0;
    for (const auto& m : v) n += std::holds_alternative<T>(m) ? 1 : 0;
    return n;
}

}  // namespace xq::test
