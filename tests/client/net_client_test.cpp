// The network thread against a listening socket on 127.0.0.1 (loopback only).
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "net/net_client.h"

using namespace xq::client;

namespace {

struct Listener {
    int fd = -1;
    std::uint16_t port = 0;
    Listener() {
        fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = 0;
        ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        ::listen(fd, 4);
        socklen_t len = sizeof a;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
        port = ntohs(a.sin_port);
    }
    ~Listener() { ::close(fd); }
};

// Collects events until `pred` holds or two seconds pass.
template <class Pred>
std::vector<NetEvent> wait_for(NetClient& c, Pred pred) {
    std::vector<NetEvent> all;
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (std::chrono::steady_clock::now() < end) {
        for (auto& e : c.drain()) all.push_back(std::move(e));
        if (pred(all)) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return all;
}

bool has(const std::vector<NetEvent>& v, NetEvent::Kind k) {
    for (const auto& e : v)
        if (e.kind == k) return true;
    return false;
}

}  // namespace

TEST(NetClient, ExchangesLinesWithoutBlocking) {
    Listener l;
    NetClient c;
    c.connect("127.0.0.1", l.port);
    const int peer = ::accept(l.fd, nullptr, nullptr);
    ASSERT_GE(peer, 0);
    auto ev = wait_for(c, [](auto& v) { return has(v, NetEvent::Kind::Connected); });
    ASSERT_TRUE(has(ev, NetEvent::Kind::Connected));

    c.send_line(R"({"type":"hello"})");
    char buf[256] = {};
    std::size_t got = 0;
    while (got < 17) {
        const ssize_t n = ::recv(peer, buf + got, sizeof buf - got - 1, 0);
        ASSERT_GT(n, 0);
        got += std::size_t(n);
    }
    EXPECT_STREQ(buf, "{\"type\":\"hello\"}\n");

    // Two lines in one packet, a third split across packets, CRLF tolerated.
    const std::string a = "one\ntwo\r\nthr";
    ASSERT_EQ(::send(peer, a.data(), a.size(), 0), ssize_t(a.size()));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_EQ(::send(peer, "ee\n", 3, 0), 3);
    ev = wait_for(c, [](auto& v) { return v.size() >= 3; });
    ASSERT_EQ(ev.size(), 3u);
    EXPECT_EQ(ev[0].text, "one");
    EXPECT_EQ(ev[1].text, "two");
    EXPECT_EQ(ev[2].text, "three");

    ::close(peer);
    ev = wait_for(c, [](auto& v) { return has(v, NetEvent::Kind::Closed); });
    EXPECT_TRUE(has(ev, NetEvent::Kind::Closed));
}

TEST(NetClient, OversizedLineClosesTheConnection) {
    Listener l;
    NetClient c;
    c.connect("127.0.0.1", l.port);
    const int peer = ::accept(l.fd, nullptr, nullptr);
    ASSERT_GE(peer, 0);
    const std::string big(MAX_LINE_BYTES + 100, 'x');
    std::size_t sent = 0;
    while (sent < big.size()) {
        const ssize_t n = ::send(peer, big.data() + sent, big.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) break;
        sent += std::size_t(n);
    }
    auto ev = wait_for(c, [](auto& v) { return has(v, NetEvent::Kind::Closed); });
    ASSERT_TRUE(has(ev, NetEvent::Kind::Closed));
    EXPECT_NE(ev.back().text.find("size limit"), std::string::npos) << ev.back().text;
    for (const auto& e : ev) EXPECT_NE(e.kind, NetEvent::Kind::Line);
    ::close(peer);
}

TEST(NetClient, RefusedConnectionIsReported) {
    std::uint16_t port;
    {
        Listener l;  // bound then closed: nothing listens there now
        port = l.port;
    }
    NetClient c;
    c.connect("127.0.0.1", port);
    auto ev = wait_for(c, [](auto& v) { return has(v, NetEvent::Kind::Closed); });
    ASSERT_TRUE(has(ev, NetEvent::Kind::Closed));
    EXPECT_FALSE(has(ev, NetEvent::Kind::Connected));
    EXPECT_FALSE(ev.back().text.empty());
}
