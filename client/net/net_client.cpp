#include "net/net_client.h"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace xq::client {

NetClient::NetClient() = default;

NetClient::~NetClient() { close(); }

void NetClient::connect(const std::string& host, std::uint16_t port) {
    close();
    if (::pipe(wake_pipe_) != 0) {
        push({NetEvent::Kind::Closed, std::strerror(errno)});
        return;
    }
    ::fcntl(wake_pipe_[0], F_SETFL, O_NONBLOCK);
    ::fcntl(wake_pipe_[1], F_SETFL, O_NONBLOCK);
    stop_ = false;
    running_ = true;
    thread_ = std::thread(&NetClient::run, this, host, port);
}

void NetClient::close() {
    if (thread_.joinable()) {
        stop_ = true;
        wake();
        thread_.join();
    }
    for (int& fd : wake_pipe_) {
        if (fd >= 0) ::close(fd);
        fd = -1;
    }
    std::lock_guard lock(mutex_);
    outbox_.clear();
}

void NetClient::send_line(std::string line) {
    if (!running_) return;
    line += '\n';
    {
        std::lock_guard lock(mutex_);
        outbox_.push_back(std::move(line));
    }
    wake();
}

std::vector<NetEvent> NetClient::drain() {
    std::lock_guard lock(mutex_);
    std::vector<NetEvent> out(std::make_move_iterator(inbox_.begin()),
                              std::make_move_iterator(inbox_.end()));
    inbox_.clear();
    return out;
}

void NetClient::push(NetEvent e) {
    e.at = std::chrono::steady_clock::now();
    std::lock_guard lock(mutex_);
    inbox_.push_back(std::move(e));
}

void NetClient::wake() {
    if (wake_pipe_[1] >= 0) {
        const char c = 1;
        [[maybe_unused]] const auto n = ::write(wake_pipe_[1], &c, 1);
    }
}

namespace {

// Non-blocking connect to each resolved address in turn, bounded by the timeout.
int open_socket(const std::string& host, std::uint16_t port, const std::atomic<bool>& stop,
                std::string& error) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    const std::string port_text = std::to_string(port);
    if (const int rc = ::getaddrinfo(host.c_str(), port_text.c_str(), &hints, &res); rc != 0) {
        error = ::gai_strerror(rc);
        return -1;
    }
    int fd = -1;
    error = "no address";
    for (addrinfo* ai = res; ai && fd < 0 && !stop; ai = ai->ai_next) {
        fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0) continue;
        if (::connect(fd, ai->ai_addr, ai->ai_addrlen) != 0 && errno != EINPROGRESS) {
            error = std::strerror(errno);
            ::close(fd);
            fd = -1;
            continue;
        }
        // Wait in short slices so a close() during connect is honoured quickly.
        int waited = 0, soerr = ETIMEDOUT;
        while (waited < CONNECT_TIMEOUT_MS && !stop) {
            pollfd p{fd, POLLOUT, 0};
            const int r = ::poll(&p, 1, 100);
            waited += 100;
            if (r > 0) {
                socklen_t len = sizeof soerr;
                ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len);
                break;
            }
        }
        if (soerr != 0) {
            error = std::strerror(soerr);
            ::close(fd);
            fd = -1;
        }
    }
    ::freeaddrinfo(res);
    return fd;
}

}  // namespace

void NetClient::run(std::string host, std::uint16_t port) {
    std::string error;
    const int fd = open_socket(host, port, stop_, error);
    if (fd < 0) {
        push({NetEvent::Kind::Closed, stop_ ? "closed" : error});
        running_ = false;
        return;
    }
    push({NetEvent::Kind::Connected, {}});
    std::string in, out;
    std::string reason = "closed";
    char buf[8192];
    while (!stop_) {
        {
            std::lock_guard lock(mutex_);
            while (!outbox_.empty()) {
                out += outbox_.front();
                outbox_.pop_front();
            }
        }
        pollfd fds[2] = {{fd, short(POLLIN | (out.empty() ? 0 : POLLOUT)), 0},
                         {wake_pipe_[0], POLLIN, 0}};
        if (::poll(fds, 2, 500) < 0 && errno != EINTR) {
            reason = std::strerror(errno);
            break;
        }
        if (fds[1].revents & POLLIN)
            while (::read(wake_pipe_[0], buf, sizeof buf) > 0) {
            }
        if (fds[0].revents & POLLOUT && !out.empty()) {
            const ssize_t n = ::send(fd, out.data(), out.size(), MSG_NOSIGNAL);
            if (n < 0 && errno != EAGAIN && errno != EINTR) {
                reason = std::strerror(errno);
                break;
            }
            if (n > 0) out.erase(0, std::size_t(n));
        }
        if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
            if (n == 0) {
                reason = "the server closed the connection";
                break;
            }
            if (n < 0) {
                if (errno == EAGAIN || errno == EINTR) continue;
                reason = std::strerror(errno);
                break;
            }
            in.append(buf, std::size_t(n));
            std::size_t start = 0, nl;
            while ((nl = in.find('\n', start)) != std::string::npos) {
                std::string line = in.substr(start, nl - start);
                if (!line.empty() && line.back() == '\r') line.pop_back();
                if (!line.empty()) push({NetEvent::Kind::Line, std::move(line)});
                start = nl + 1;
            }
            in.erase(0, start);
            if (in.size() > MAX_LINE_BYTES) {
                reason = "a line from the server exceeded the size limit";
                break;
            }
        }
    }
    ::close(fd);
    push({NetEvent::Kind::Closed, reason});
    running_ = false;
}

bool parse_host_port(const std::string& text, std::string& host, std::uint16_t& port) {
    std::string h, p;
    if (!text.empty() && text.front() == '[') {
        const auto close = text.find(']');
        if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':')
            return false;
        h = text.substr(1, close - 1);
        p = text.substr(close + 2);
    } else {
        const auto colon = text.rfind(':');
        if (colon == std::string::npos) return false;
        h = text.substr(0, colon);
        p = text.substr(colon + 1);
    }
    if (h.empty() || p.empty() || p.size() > 5) return false;
    unsigned v = 0;
    for (char c : p) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + unsigned(c - '0');
    }
    if (v == 0 || v > 65535) return false;
    host = h;
    port = std::uint16_t(v);
    return true;
}

}  // namespace xq::client
