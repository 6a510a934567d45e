#include "client/net/lan_discovery.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <random>

namespace xq::client {

namespace {

using Clock = std::chrono::steady_clock;

class Fd {
public:
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() {
        if (fd_ >= 0) ::close(fd_);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return fd_; }

private:
    int fd_;
};

std::string random_nonce() {
    std::random_device rd;
    std::uint64_t v = (std::uint64_t(rd()) << 32) ^ rd();
    static constexpr char HEX[] = "0123456789abcdef";
    std::string s(16, '0');
    for (int i = 0; i < 16; ++i) s[std::size_t(i)] = HEX[(v >> (4 * i)) & 15];
    return s;
}

}  // namespace

ProbeResult probe_lan(const proto::DiscoveryTarget& target, std::chrono::milliseconds wait) {
    ProbeResult result;
    wait = std::clamp(wait, std::chrono::milliseconds(1), MAX_DISCOVERY_WAIT);

    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(target.port);
    if (::inet_pton(AF_INET, target.address.c_str(), &to.sin_addr) != 1) {
        result.error = "bad discovery address '" + target.address + "'";
        return result;
    }
    Fd sock(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    if (sock.get() < 0) {
        result.error = std::string("cannot open UDP socket: ") + std::strerror(errno);
        return result;
    }
    int yes = 1;
    ::setsockopt(sock.get(), SOL_SOCKET, SO_BROADCAST, &yes, sizeof yes);
    // A loopback target gets a loopback source too, so nothing can leave the host.
    if (proto::is_loopback_target(target)) {
        sockaddr_in from{};
        from.sin_family = AF_INET;
        from.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::bind(sock.get(), reinterpret_cast<sockaddr*>(&from), sizeof from) != 0) {
            result.error = std::string("cannot bind to loopback: ") + std::strerror(errno);
            return result;
        }
    }

    proto::DiscoveryQuery query;
    query.nonce = random_nonce();
    const std::string datagram = proto::encode_discovery_query(query);
    auto send_query = [&] {
        return ::sendto(sock.get(), datagram.data(), datagram.size(), 0, reinterpret_cast<sockaddr*>(&to),
                        sizeof to) == ssize_t(datagram.size());
    };
    const auto start = Clock::now();
    const auto deadline = start + wait;
    auto resend_at = start + wait / 3;
    bool resent = false;
    if (!send_query()) {
        result.error = std::string("cannot send discovery query: ") + std::strerror(errno);
        return result;
    }

    std::array<char, proto::MAX_DISCOVERY_REPLY_BYTES + 1> buf{};
    for (;;) {
        auto now = Clock::now();
        if (now >= deadline) break;
        if (!resent && now >= resend_at) {
            send_query();
            resent = true;
        }
        auto until = resent ? deadline : std::min(deadline, resend_at);
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(until - now).count() + 1;
        pollfd p{sock.get(), POLLIN, 0};
        int r = ::poll(&p, 1, int(ms));
        if (r < 0 && errno != EINTR) {
            result.error = std::string("poll failed: ") + std::strerror(errno);
            break;
        }
        if (r <= 0) continue;
        sockaddr_in from{};
        socklen_t len = sizeof from;
        ssize_t n = ::recvfrom(sock.get(), buf.data(), buf.size(), 0, reinterpret_cast<sockaddr*>(&from), &len);
        if (n < 0) continue;
        auto reply = proto::decode_discovery_reply(std::string_view(buf.data(), std::size_t(n)));
        if (!reply || reply->nonce != query.nonce) {
            ++result.rejected;
            continue;
        }
        char text[INET_ADDRSTRLEN] = {};
        ::inet_ntop(AF_INET, &from.sin_addr, text, sizeof text);
        FoundServer found{text, std::move(*reply),
                          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start)};
        bool seen = std::any_of(result.servers.begin(), result.servers.end(), [&](const FoundServer& f) {
            return f.address == found.address && f.info.port == found.info.port;
        });
        if (!seen && result.servers.size() < MAX_DISCOVERED_SERVERS) result.servers.push_back(std::move(found));
    }
    return result;
}

}  // namespace xq::client
