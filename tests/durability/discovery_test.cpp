// LAN discovery: the datagram codec as untrusted input, the target setting, and a real
// responder found by the client's probe. Every datagram here goes to a loopback address.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <future>
#include <thread>

#include "client/net/lan_discovery.h"
#include "server/discovery/discovery_responder.h"
#include "protocol/discovery.h"

using namespace xq;
using namespace std::chrono_literals;

namespace {

proto::DiscoveryReply sample_reply() {
    proto::DiscoveryReply r;
    r.nonce = "abc123";
    r.name = "Club room 象棋";
    r.port = 5051;
    r.protocol = 1;
    r.server_version = "0.1.0";
    r.tables = 3;
    r.players = 7;
    r.password = true;
    return r;
}

// Runs an io_context on its own thread for the responder under test.
class IoThread {
public:
    IoThread() : guard_(io.get_executor()), thread_([this] { io.run(); }) {}
    ~IoThread() { finish(); }
    // Stops the thread; the responders' handlers have run their last when it returns.
    void finish() {
        guard_.reset();
        io.stop();
        if (thread_.joinable()) thread_.join();
    }
    template <class F>
    auto call(F f) {  // runs f on the I/O thread and waits for its result
        std::packaged_task<decltype(f())()> task(std::move(f));
        auto fut = task.get_future();
        boost::asio::post(io, [&task] { task(); });
        return fut.get();
    }
    boost::asio::io_context io;

private:
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_;
    std::thread thread_;
};

// Declared after a test's responders, so it is destroyed first: the I/O thread has stopped
// before a responder is destroyed on the test's thread (its receive handler, which runs on
// the I/O thread, reads the responder's state).
struct StopsFirst {
    IoThread& io;
    ~StopsFirst() { io.finish(); }
};

server::DiscoveryStatus status() {
    server::DiscoveryStatus s;
    s.name = "Test server";
    s.tcp_port = 45678;
    s.protocol = 1;
    s.server_version = "0.1.0";
    s.tables = 2;
    s.players = 5;
    return s;
}

proto::DiscoveryTarget loopback(std::string address, std::uint16_t port) {
    proto::DiscoveryTarget t{std::move(address), port};
    EXPECT_TRUE(proto::is_loopback_target(t));  // the network rule: loopback only
    return t;
}

// A raw UDP socket bound to 127.0.0.1 for hand-made datagrams.
struct RawSocket {
    RawSocket() {
        fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    }
    ~RawSocket() { ::close(fd); }
    std::uint16_t port() const {
        sockaddr_in a{};
        socklen_t len = sizeof a;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
        return ntohs(a.sin_port);
    }
    void send_to(std::uint16_t port, std::string_view data) const {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(port);
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::sendto(fd, data.data(), data.size(), 0, reinterpret_cast<sockaddr*>(&a), sizeof a);
    }
    // The next datagram within `ms`, with its sender's port; empty when none came.
    std::string receive(int ms, std::uint16_t* from_port = nullptr) const {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, ms) <= 0) return {};
        char buf[2048];
        sockaddr_in a{};
        socklen_t len = sizeof a;
        ssize_t n = ::recvfrom(fd, buf, sizeof buf, 0, reinterpret_cast<sockaddr*>(&a), &len);
        if (from_port) *from_port = ntohs(a.sin_port);
        return n > 0 ? std::string(buf, std::size_t(n)) : std::string();
    }
    int fd = -1;
};

}  // namespace

TEST(DiscoveryCodec, QueryAndReplyRoundTrip) {
    proto::DiscoveryQuery q;
    q.nonce = "0123456789abcdefABCDEF";
    auto text = proto::encode_discovery_query(q);
    EXPECT_LE(text.size(), proto::MAX_DISCOVERY_QUERY_BYTES);
    auto back = proto::decode_discovery_query(text);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->nonce, q.nonce);
    EXPECT_EQ(back->version, proto::DISCOVERY_VERSION);

    auto r = sample_reply();
    std::string err;
    auto rb = proto::decode_discovery_reply(proto::encode_discovery_reply(r), &err);
    ASSERT_TRUE(rb) << err;
    EXPECT_EQ(rb->name, r.name);
    EXPECT_EQ(rb->port, 5051);
    EXPECT_EQ(rb->tables, 3);
    EXPECT_EQ(rb->players, 7);
    EXPECT_TRUE(rb->password);
    EXPECT_EQ(rb->server_version, "0.1.0");

    // A name at the cap still fits in one reply datagram.
    r.name = std::string(proto::MAX_DISCOVERY_NAME_BYTES, 'n');
    r.nonce = std::string(proto::MAX_DISCOVERY_NONCE_CHARS, 'f');
    r.server_version = std::string(proto::MAX_DISCOVERY_VERSION_BYTES, 'v');
    r.tables = r.players = proto::MAX_DISCOVERY_COUNT;
    auto big = proto::encode_discovery_reply(r);
    EXPECT_LE(big.size(), proto::MAX_DISCOVERY_REPLY_BYTES);
    EXPECT_TRUE(proto::decode_discovery_reply(big));
}

TEST(DiscoveryCodec, RefusesMalformedQueries) {
    const std::string bad[] = {
        "",
        "not json",
        "[1,2,3]",
        R"({"type":"xq_discover","version":1})",
        R"({"type":"xq_discover","version":1,"nonce":""})",
        R"({"type":"xq_discover","version":1,"nonce":"has space"})",
        R"({"type":"xq_discover","version":0,"nonce":"a"})",
        R"({"type":"xq_discover","version":"1","nonce":"a"})",
        R"({"type":"xq_discover","version":1.5,"nonce":"a"})",
        R"({"type":"xq_server","version":1,"nonce":"a"})",
        R"({"type":"xq_discover","version":1,"nonce":"a","x":{"y":1}})",
        R"({"type":"xq_discover","version":1,"nonce":"a","x":[[[[[]]]]]})",
        R"({"type":"xq_discover","version":18446744073709551615,"nonce":"a"})",
        R"({"type":"xq_discover","version":1,"nonce":")" + std::string(33, 'a') + "\"}",
        R"({"type":"xq_discover","version":1,"nonce":"a","pad":")" + std::string(300, ' ') + "\"}",
        std::string("{\"type\":\"xq_discover\",\"version\":1,\"nonce\":\"a\",\"n\":\"\xff\xfe\"}"),
        R"({"type":"xq_discover","version":1,"nonce":"a","a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1,"i":1,"j":1,"k":1,"l":1,"m":1,"n":1})",
    };
    for (const auto& d : bad) {
        std::string err;
        EXPECT_FALSE(proto::decode_discovery_query(d, &err)) << d;
        EXPECT_FALSE(err.empty()) << d;
    }
}

TEST(DiscoveryCodec, RefusesMalformedReplies) {
    auto with = [](const std::string& key, const std::string& raw) {
        std::string s = proto::encode_discovery_reply(sample_reply());
        auto pos = s.find("\"" + key + "\":");
        EXPECT_NE(pos, std::string::npos) << key;
        auto start = pos + key.size() + 3;
        auto end = s.find_first_of(",}", s[start] == '"' ? s.find('"', start + 1) : start);
        return s.substr(0, start) + raw + s.substr(end);
    };
    const std::string bad[] = {
        with("port", "0"),
        with("port", "65536"),
        with("port", "\"5050\""),
        with("tables", "-1"),
        with("players", "1000001"),
        with("name", "\"\""),
        with("name", "\"bell\\u0007\""),
        with("name", "\"c1\\u0085\""),
        with("name", "\"" + std::string(121, 'n') + "\""),
        with("password", "1"),
        with("protocol", "0"),
        with("nonce", "\"bad nonce\""),
        with("server_version", "null"),
        R"({"type":"xq_discover","version":1,"nonce":"a"})",
        std::string(proto::MAX_DISCOVERY_REPLY_BYTES + 1, ' '),
    };
    for (const auto& d : bad) {
        std::string err;
        EXPECT_FALSE(proto::decode_discovery_reply(d, &err)) << d;
        EXPECT_FALSE(err.empty()) << d;
    }
}

TEST(DiscoveryTarget, FlagBeatsEnvironmentBeatsDefault) {
    auto d = proto::choose_discovery_target(std::nullopt, nullptr);
    ASSERT_TRUE(d);
    EXPECT_EQ(d->address, "255.255.255.255");
    EXPECT_EQ(d->port, 5050);
    EXPECT_FALSE(proto::is_loopback_target(*d));

    auto env = proto::choose_discovery_target(std::nullopt, "127.255.255.255");
    ASSERT_TRUE(env);
    EXPECT_EQ(env->address, "127.255.255.255");
    EXPECT_EQ(env->port, 5050);
    EXPECT_TRUE(proto::is_loopback_target(*env));

    auto flag = proto::choose_discovery_target(std::string_view("127.0.0.1:6000"), "127.255.255.255");
    ASSERT_TRUE(flag);
    EXPECT_EQ(flag->address, "127.0.0.1");
    EXPECT_EQ(flag->port, 6000);

    for (const char* bad : {"localhost", "127.0.0.1:0", "127.0.0.1:65536", "127.0.0.1:", "1.2.3", "::1", "127.0.0.1:5x"}) {
        std::string err;
        EXPECT_FALSE(proto::parse_discovery_target(bad, &err)) << bad;
        EXPECT_FALSE(err.empty());
    }
    EXPECT_FALSE(proto::choose_discovery_target(std::nullopt, "nonsense"));
}

TEST(Discovery, ProbeFindsRunningResponderOnLoopback) {
    IoThread io;
    server::DiscoveryResponder responder(io.io, status);
    StopsFirst stop_io{io};
    auto err = io.call([&] { return responder.open("127.0.0.1", 0); });
    ASSERT_EQ(err, "");
    ASSERT_NE(responder.port(), 0);

    auto result = client::probe_lan(loopback("127.0.0.1", responder.port()), 300ms);
    EXPECT_EQ(result.error, "");
    ASSERT_EQ(result.servers.size(), 1u);  // two queries, one entry
    const auto& s = result.servers[0];
    EXPECT_EQ(s.address, "127.0.0.1");
    EXPECT_EQ(s.info.name, "Test server");
    EXPECT_EQ(s.info.port, 45678);
    EXPECT_EQ(s.info.tables, 2);
    EXPECT_EQ(s.info.players, 5);
    EXPECT_FALSE(s.info.password);
    EXPECT_EQ(io.call([&] { return responder.answered(); }), 2u);
    io.call([&] {
        responder.close();
        return 0;
    });
}

// The loopback broadcast address reaches every responder listening on the port, the way
// 255.255.255.255 reaches every server of a LAN.
TEST(Discovery, LoopbackBroadcastReachesEveryResponder) {
    IoThread io;
    auto named = [](std::string name, std::uint16_t tcp_port) {
        return [name, tcp_port] {
            auto s = status();
            s.name = name;
            s.tcp_port = tcp_port;
            return s;
        };
    };
    server::DiscoveryResponder a(io.io, named("alpha", 40001));
    server::DiscoveryResponder b(io.io, named("beta", 40002));
    StopsFirst stop_io{io};
    ASSERT_EQ(io.call([&] { return a.open("0.0.0.0", 0); }), "");
    std::uint16_t port = a.port();
    ASSERT_EQ(io.call([&] { return b.open("0.0.0.0", port); }), "");

    auto result = client::probe_lan(loopback("127.255.255.255", port), 300ms);
    EXPECT_EQ(result.error, "");
    std::vector<std::string> names;
    for (const auto& s : result.servers) names.push_back(s.info.name);
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"alpha", "beta"}));
    EXPECT_GE(io.call([&] { return a.answered(); }), 1u);
    EXPECT_GE(io.call([&] { return b.answered(); }), 1u);
    io.call([&] {
        a.close();
        b.close();
        return 0;
    });
}

TEST(Discovery, ResponderIgnoresGarbageAndKeepsAnswering) {
    IoThread io;
    server::DiscoveryResponder responder(io.io, status);
    StopsFirst stop_io{io};
    ASSERT_EQ(io.call([&] { return responder.open("127.0.0.1", 0); }), "");
    RawSocket raw;
    raw.send_to(responder.port(), "garbage");
    raw.send_to(responder.port(), std::string(5000, '{'));
    raw.send_to(responder.port(), R"({"type":"xq_discover","version":1,"nonce":"a","deep":[[[[]]]]})");
    EXPECT_EQ(raw.receive(150), "");  // no answer to any of them
    EXPECT_EQ(io.call([&] { return responder.refused(); }), 3u);

    proto::DiscoveryQuery q;
    q.nonce = "n1";
    raw.send_to(responder.port(), proto::encode_discovery_query(q));
    std::uint16_t from = 0;
    auto answer = raw.receive(1000, &from);
    auto reply = proto::decode_discovery_reply(answer);
    ASSERT_TRUE(reply) << answer;
    EXPECT_EQ(reply->nonce, "n1");
    EXPECT_EQ(from, responder.port());
}

TEST(Discovery, ResponderAnswersAreRateLimited) {
    IoThread io;
    server::DiscoveryResponder responder(io.io, status);
    StopsFirst stop_io{io};
    ASSERT_EQ(io.call([&] { return responder.open("127.0.0.1", 0); }), "");
    RawSocket raw;
    proto::DiscoveryQuery q;
    q.nonce = "flood";
    const int sent = server::MAX_DISCOVERY_REPLIES_PER_SECOND * 3;
    for (int i = 0; i < sent; ++i) raw.send_to(responder.port(), proto::encode_discovery_query(q));
    int answers = 0;
    while (!raw.receive(200).empty()) ++answers;
    EXPECT_GE(answers, 1);
    EXPECT_LE(answers, server::MAX_DISCOVERY_REPLIES_PER_SECOND);
    auto throttled = io.call([&] { return responder.throttled(); });
    EXPECT_GE(int(throttled), sent - server::MAX_DISCOVERY_REPLIES_PER_SECOND);
}

TEST(Discovery, ProbeDropsStaleAndMalformedAnswers) {
    RawSocket fake;  // plays a hostile server
    std::thread server([&] {
        std::uint16_t from = 0;
        auto query_text = fake.receive(2000, &from);
        auto q = proto::decode_discovery_query(query_text);
        if (!q) return;
        auto reply = sample_reply();
        reply.nonce = "stale";
        fake.send_to(from, proto::encode_discovery_reply(reply));
        fake.send_to(from, "{\"type\":\"xq_server\"}");
        fake.send_to(from, std::string(4000, 'x'));
        reply.nonce = q->nonce;
        fake.send_to(from, proto::encode_discovery_reply(reply));
    });
    auto result = client::probe_lan(loopback("127.0.0.1", fake.port()), 300ms);
    server.join();
    EXPECT_EQ(result.error, "");
    EXPECT_EQ(result.rejected, 3);
    ASSERT_EQ(result.servers.size(), 1u);
    EXPECT_EQ(result.servers[0].info.name, "Club room 象棋");
}

TEST(Discovery, ProbeWithNoServerFindsNothing) {
    RawSocket silent;  // a bound port nobody answers on
    auto result = client::probe_lan(loopback("127.0.0.1", silent.port()), 100ms);
    EXPECT_EQ(result.error, "");
    EXPECT_TRUE(result.servers.empty());
}
