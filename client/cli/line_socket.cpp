#include "line_socket.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace xq::client {

LineSocket::~LineSocket() {
    close();
}

void LineSocket::close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    buffer_.clear();
    skipping_ = false;
}

std::string LineSocket::connect(const std::string& host, const std::string& port, int timeout_ms,
                                const std::string& source) {
    close();
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* list = nullptr;
    const int rc = ::getaddrinfo(host.c_str(), port.c_str(), &hints, &list);
    if (rc != 0) return "cannot resolve " + host + ": " + ::gai_strerror(rc);

    std::string error = "no address for " + host;
    for (addrinfo* ai = list; ai != nullptr; ai = ai->ai_next) {
        const int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) {
            error = std::string("socket: ") + std::strerror(errno);
            continue;
        }
        if (rcvbuf_ > 0) ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf_, sizeof rcvbuf_);
        if (!source.empty() && ai->ai_family == AF_INET) {
            sockaddr_in local{};
            local.sin_family = AF_INET;
            if (::inet_pton(AF_INET, source.c_str(), &local.sin_addr) != 1 ||
                ::bind(fd, reinterpret_cast<sockaddr*>(&local), sizeof local) != 0) {
                error = "cannot bind to " + source + ": " + std::strerror(errno);
                ::close(fd);
                continue;
            }
        }
        // Non-blocking connect so the timeout holds, then back to blocking writes.
        const int flags = ::fcntl(fd, F_GETFL, 0);
        ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
        int r = ::connect(fd, ai->ai_addr, ai->ai_addrlen);
        if (r != 0 && errno == EINPROGRESS) {
            pollfd p{fd, POLLOUT, 0};
            r = ::poll(&p, 1, timeout_ms);
            if (r == 1) {
                int so_error = 0;
                socklen_t len = sizeof so_error;
                ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &so_error, &len);
                r = so_error == 0 ? 0 : -1;
                errno = so_error;
            } else {
                if (r == 0) errno = ETIMEDOUT;
                r = -1;
            }
        }
        if (r == 0) {
            ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
            const int one = 1;
            ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            fd_ = fd;
            error.clear();
            break;
        }
        error = "cannot connect to " + host + ":" + port + ": " + std::strerror(errno);
        ::close(fd);
    }
    ::freeaddrinfo(list);
    return error;
}

bool LineSocket::send_raw(std::string_view bytes) {
    if (fd_ < 0) return false;
    while (!bytes.empty()) {
        const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        bytes.remove_prefix(std::size_t(n));
    }
    return true;
}

bool LineSocket::send_line(std::string_view text) {
    std::string line(text);
    line += '\n';
    return send_raw(line);
}

bool LineSocket::read_available(std::vector<std::string>& lines, std::size_t max_line) {
    if (fd_ < 0) return false;
    char chunk[16384];
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, MSG_DONTWAIT);
    if (n == 0) return false;
    if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;

    std::string_view data(chunk, std::size_t(n));
    while (!data.empty()) {
        const std::size_t nl = data.find('\n');
        const std::string_view part = data.substr(0, nl);
        if (!skipping_) buffer_.append(part);
        if (buffer_.size() > max_line) {
            buffer_.clear();
            skipping_ = true;
        }
        if (nl == std::string_view::npos) break;
        data.remove_prefix(nl + 1);
        if (skipping_) {
            skipping_ = false;
            lines.emplace_back();
            continue;
        }
        if (!buffer_.empty() && buffer_.back() == '\r') buffer_.pop_back();
        lines.push_back(std::move(buffer_));
        buffer_.clear();
    }
    return true;
}

bool split_host_port(std::string_view text, std::string& host, std::string& port) {
    if (!text.empty() && text.front() == '[') {
        const std::size_t close = text.find(']');
        if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':')
            return false;
        host = std::string(text.substr(1, close - 1));
        port = std::string(text.substr(close + 2));
    } else {
        const std::size_t colon = text.rfind(':');
        if (colon == std::string_view::npos) return false;
        host = std::string(text.substr(0, colon));
        port = std::string(text.substr(colon + 1));
    }
    if (host.empty() || port.empty() || port.size() > 5) return false;
    for (const char c : port)
        if (c < '0' || c > '9') return false;
    return true;
}

}  // namespace xq::client
