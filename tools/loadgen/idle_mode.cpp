#include "idle_mode.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <deque>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "protocol/codec.h"
#include "protocol/framing.h"

namespace xq::loadgen {

namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

// Resident set size of a process, from /proc; 0 when unknown.
std::uint64_t rss_bytes(int pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string key;
    while (in >> key) {
        if (key == "VmRSS:") {
            std::uint64_t kb = 0;
            in >> kb;
            return kb * 1024;
        }
        in.ignore(1 << 16, '\n');
    }
    return 0;
}

void run_for(asio::io_context& io, double seconds) {
    io.restart();
    io.run_for(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(seconds)));
}

double percentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
    return v[std::min(i, v.size() - 1)];
}

// ---- The baseline: a bare Asio NDJSON echo server in a child process -----------------------

class EchoSession : public std::enable_shared_from_this<EchoSession> {
public:
    explicit EchoSession(tcp::socket s) : socket_(std::move(s)) {}
    void read() {
        asio::async_read_until(socket_, buf_, '\n', [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
            if (ec) return;
            const auto begin = asio::buffers_begin(self->buf_.data());
            self->line_.assign(begin, begin + static_cast<std::ptrdiff_t>(n));
            self->buf_.consume(n);
            asio::async_write(self->socket_, asio::buffer(self->line_), [self](boost::system::error_code e, std::size_t) {
                if (!e) self->read();
            });
        });
    }

private:
    tcp::socket socket_;
    asio::streambuf buf_;
    std::string line_;
};

void echo_accept(tcp::acceptor& acceptor) {
    acceptor.async_accept([&acceptor](boost::system::error_code ec, tcp::socket s) {
        if (!ec) {
            s.set_option(tcp::no_delay(true), ec);
            std::make_shared<EchoSession>(std::move(s))->read();
        }
        echo_accept(acceptor);
    });
}

struct Child {
    int pid = 0;
    std::uint16_t port = 0;
};

// Forks the echo server (it dies with this process); its port comes back through a pipe.
std::optional<Child> start_echo(const asio::ip::address& addr) {
    int fds[2];
    if (pipe(fds) != 0) return std::nullopt;
    const pid_t pid = fork();
    if (pid < 0) return std::nullopt;
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        close(fds[0]);
        asio::io_context io(1);
        tcp::acceptor acceptor(io, tcp::endpoint(addr, 0));
        acceptor.listen(asio::socket_base::max_listen_connections);
        const std::uint16_t port = acceptor.local_endpoint().port();
        if (write(fds[1], &port, sizeof port) != static_cast<ssize_t>(sizeof port)) _exit(1);
        close(fds[1]);
        echo_accept(acceptor);
        io.run();
        _exit(0);
    }
    close(fds[1]);
    Child c;
    c.pid = pid;
    const bool ok = read(fds[0], &c.port, sizeof c.port) == static_cast<ssize_t>(sizeof c.port);
    close(fds[0]);
    if (!ok) {
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        return std::nullopt;
    }
    return c;
}

// ---- Idle connections ----------------------------------------------------------------------

struct Counters {
    int connected = 0;
    int failed = 0;
    int ready = 0;   // echoed their line / sat down at a table
    int errors = 0;
    std::vector<proto::TableId> tables;  // created by the xiangqi-server creators
};

// One connection that says what it must and then stays quiet, answering only pings. Lines
// are only searched for their type (JSON keys come sorted, so anywhere in the line): decoding
// every users page would time the tool.
class IdleConn : public std::enable_shared_from_this<IdleConn> {
public:
    IdleConn(asio::io_context& io, Counters& c, std::vector<std::string> opening)
        : socket_(io), c_(c), opening_(std::move(opening)) {}

    std::function<void(std::string_view)> on_reply;  // the probe: each line received

    void start(const tcp::endpoint& ep) {
        socket_.async_connect(ep, [self = shared_from_this()](boost::system::error_code ec) {
            if (ec) {
                ++self->c_.failed;
                return;
            }
            ++self->c_.connected;
            self->socket_.set_option(tcp::no_delay(true), ec);
            for (auto& line : self->opening_) self->send(std::move(line));
            self->opening_.clear();
            self->read();
        });
    }

    void send(std::string line) {
        out_.push_back(std::move(line));
        if (out_.size() == 1) write();
    }

private:
    void write() {
        asio::async_write(socket_, asio::buffer(out_.front()), [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
            if (ec) return;
            self->out_.pop_front();
            if (!self->out_.empty()) self->write();
        });
    }

    void read() {
        socket_.async_read_some(asio::buffer(buf_), [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
            if (ec) return;
            self->frames_.feed(
                std::string_view(self->buf_.data(), n), [&](std::string_view line) { self->on_line(line); },
                [&] { ++self->c_.errors; });
            self->read();
        });
    }

    static bool is(std::string_view line, std::string_view type) {
        return line.find("\"type\":\"" + std::string(type) + "\"") != std::string_view::npos;
    }

    void on_line(std::string_view line) {
        if (on_reply) return on_reply(line);
        if (!is(line, "ping") && !is(line, "error") && !is(line, "table_snapshot") && !is(line, "echo")) return;
        if (is(line, "echo")) {
            ++c_.ready;
            return;
        }
        auto d = proto::decode_server(line);
        if (!d) return;
        if (const auto* p = std::get_if<proto::Ping>(&d.value())) {
            send(proto::encode_line(proto::ClientMessage{proto::Pong{p->id}}));
        } else if (const auto* s = std::get_if<proto::TableSnapshot>(&d.value())) {
            if (!seated_) {
                seated_ = true;
                ++c_.ready;
                if (s->you == proto::Role::Red) c_.tables.push_back(s->table.id);
            }
        } else if (const auto* e = std::get_if<proto::Error>(&d.value())) {
            if (++c_.errors < 5) std::fprintf(stderr, "idle: error %s\n", e->message.c_str());
        }
    }

    tcp::socket socket_;
    Counters& c_;
    std::vector<std::string> opening_;
    std::array<char, 4096> buf_{};
    proto::FrameReader frames_;
    std::deque<std::string> out_;
    bool seated_ = false;
};

// Waits (bounded) until `done` holds.
bool wait_until(asio::io_context& io, const std::function<bool()>& done, double limit_s) {
    const auto end = Clock::now() + std::chrono::duration<double>(limit_s);
    while (!done() && Clock::now() < end) run_for(io, 0.05);
    return done();
}

// Keeps at most IN_FLIGHT connects unanswered: a busy server accepts slowly, and connects
// past its listen backlog would wait out the kernel's SYN retries and fail.
void pace(asio::io_context& io, const Counters& c, int started) {
    constexpr int IN_FLIGHT = 1000;
    run_for(io, 0.01);
    wait_until(io, [&] { return c.connected + c.failed + IN_FLIGHT > started; }, 120);
}

struct Measured {
    int held = 0;
    int failed = 0;
    double bytes_per_conn = 0;
    double p50_us = 0, p99_us = 0;
};

// Times `pings` round trips on one more connection: `line(i)` out, until `answered(reply, i)`.
void time_round_trips(asio::io_context& io, const tcp::endpoint& ep, Counters& c, std::vector<std::string> opening,
                      int pings, const std::function<std::string(int)>& line,
                      const std::function<bool(std::string_view, int)>& answered, Measured& m) {
    auto probe = std::make_shared<IdleConn>(io, c, std::move(opening));
    int i = -1;
    bool finished = false;
    Clock::time_point sent{};
    std::vector<double> rtt;
    // Each answer sends the next ping at once, so the loop's polling never delays one.
    std::function<void()> next = [&] {
        if (++i >= pings) {
            finished = true;
            return;
        }
        sent = Clock::now();
        probe->send(line(i));
    };
    const int connected = c.connected;
    probe->start(ep);
    wait_until(io, [&] { return c.connected > connected; }, 10);
    run_for(io, 0.2);  // the server's greeting lines go by
    probe->on_reply = [&](std::string_view reply) {
        if (finished || !answered(reply, i)) return;
        rtt.push_back(std::chrono::duration<double, std::micro>(Clock::now() - sent).count());
        next();
    };
    next();
    wait_until(io, [&] { return finished; }, 120);
    probe->on_reply = nullptr;
    m.p50_us = percentile(rtt, 0.50);
    m.p99_us = percentile(rtt, 0.99);
}

std::string hello(const std::string& name) {
    return proto::encode_line(proto::ClientMessage{proto::Hello{name, proto::PROTOCOL_VERSION, ""}});
}

Measured measure_echo(const IdleOptions& opt, const asio::ip::address& addr, const Child& child) {
    asio::io_context io(1);
    Counters c;
    const tcp::endpoint ep(addr, child.port);
    const std::uint64_t before = rss_bytes(child.pid);
    std::vector<std::shared_ptr<IdleConn>> conns;
    for (int k = 0; k < opt.connections; ++k) {
        conns.push_back(std::make_shared<IdleConn>(io, c, std::vector<std::string>{"{\"type\":\"echo\"}\n"}));
        conns.back()->start(ep);
        if (k % 100 == 99) pace(io, c, k);
    }
    wait_until(io, [&] { return c.ready + c.failed >= opt.connections; }, 120);
    run_for(io, opt.settle_s);
    Measured m;
    m.held = c.ready;
    m.failed = c.failed;
    m.bytes_per_conn = (static_cast<double>(rss_bytes(child.pid)) - static_cast<double>(before)) / std::max(1, c.ready);
    time_round_trips(
        io, ep, c, {}, opt.pings, [](int i) { return "{\"type\":\"ping\",\"id\":" + std::to_string(i) + "}\n"; },
        [](std::string_view reply, int i) { return reply.find(":" + std::to_string(i) + "}") != std::string_view::npos; }, m);
    return m;
}

Measured measure_server(const IdleOptions& opt, const asio::ip::address& addr) {
    asio::io_context io(1);
    Counters c;
    const tcp::endpoint ep(addr, opt.port);
    const std::uint64_t before = rss_bytes(opt.server_pid);
    const std::string run = std::to_string(Clock::now().time_since_epoch().count() % 100000) + "-";
    const int tables = std::max(1, (opt.connections + opt.per_table) / (opt.per_table + 1));
    std::vector<std::shared_ptr<IdleConn>> conns;
    for (int t = 0; t < tables; ++t) {
        const std::string create =
            proto::encode_line(proto::ClientMessage{proto::CreateTable{"idle " + std::to_string(t), proto::Role::Red, ""}});
        conns.push_back(std::make_shared<IdleConn>(io, c, std::vector<std::string>{hello(run + "c" + std::to_string(t)), create}));
        conns.back()->start(ep);
        if (t % 100 == 99) pace(io, c, t);
    }
    wait_until(io, [&] { return static_cast<int>(c.tables.size()) + c.failed + c.errors >= tables; }, 60);
    if (c.tables.empty()) return Measured{};
    for (int k = tables; k < opt.connections; ++k) {
        const proto::TableId t = c.tables[static_cast<std::size_t>(k) % c.tables.size()];
        const std::string join = proto::encode_line(proto::ClientMessage{proto::Join{t, proto::Role::Spectator}});
        conns.push_back(std::make_shared<IdleConn>(io, c, std::vector<std::string>{hello(run + "s" + std::to_string(k)), join}));
        conns.back()->start(ep);
        if (k % 100 == 99) pace(io, c, k);
    }
    wait_until(io, [&] { return c.ready + c.failed + c.errors >= opt.connections; }, 900);
    run_for(io, opt.settle_s);
    Measured m;
    m.held = c.ready;
    m.failed = c.failed + c.errors;
    m.bytes_per_conn = (static_cast<double>(rss_bytes(opt.server_pid)) - static_cast<double>(before)) / std::max(1, c.ready);
    time_round_trips(
        io, ep, c, {hello(run + "probe")}, opt.pings,
        [](int i) { return proto::encode_line(proto::ClientMessage{proto::Ping{i}}); },
        [](std::string_view reply, int i) {
            auto d = proto::decode_server(reply);
            const auto* p = d ? std::get_if<proto::Pong>(&d.value()) : nullptr;
            return p && p->id == i;
        },
        m);
    return m;
}

void print(const char* label, const IdleOptions& opt, const Measured& m) {
    std::printf("%-14s connections=%d/%d failed=%d rss_per_connection=%.0f bytes  ping_rtt_p50=%.1fus p99=%.1fus (%d pings)\n",
                label, m.held, opt.connections, m.failed, m.bytes_per_conn, m.p50_us, m.p99_us, opt.pings);
    std::fflush(stdout);
}

}  // namespace

int run_idle(const IdleOptions& opt) {
    boost::system::error_code ec;
    const auto addr = asio::ip::make_address(opt.host, ec);
    if (ec || !addr.is_loopback()) {
        std::fprintf(stderr, "xiangqi-loadgen: --host must be a loopback address (127.0.0.0/8 or ::1)\n");
        return 2;
    }
    if (opt.server_pid <= 0 || rss_bytes(opt.server_pid) == 0) {
        std::fprintf(stderr, "xiangqi-loadgen --idle: --server-pid must name the running xiangqi-server (its RSS is read from /proc)\n");
        return 2;
    }
    const auto child = start_echo(addr);
    if (!child) {
        std::fprintf(stderr, "xiangqi-loadgen --idle: cannot start the echo baseline\n");
        return 2;
    }
    const Measured echo = measure_echo(opt, addr, *child);
    kill(child->pid, SIGKILL);
    waitpid(child->pid, nullptr, 0);
    print("asio-echo", opt, echo);
    const Measured server = measure_server(opt, addr);
    print("xiangqi-server", opt, server);
    if (echo.bytes_per_conn > 0 && echo.p50_us > 0)
        std::printf("ratio server/echo: memory %.1fx  ping p50 %.1fx  p99 %.1fx\n", server.bytes_per_conn / echo.bytes_per_conn,
                    server.p50_us / echo.p50_us, server.p99_us / std::max(1.0, echo.p99_us));
    const bool ok = echo.held == opt.connections && server.held == opt.connections;
    return ok ? 0 : 2;
}

}  // namespace xq::loadgen
