#include "login_mode.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "protocol/codec.h"
#include "protocol/framing.h"

namespace xq::loadgen {

namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using Clock = std::chrono::steady_clock;

void run_for(asio::io_context& io, double seconds) {
    io.restart();
    io.run_for(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(seconds)));
}

bool wait_until(asio::io_context& io, const std::function<bool()>& done, double limit_s) {
    const auto end = Clock::now() + std::chrono::duration<double>(limit_s);
    while (!done() && Clock::now() < end) run_for(io, 0.02);
    return done();
}

std::string line_of(const proto::ClientMessage& m) { return proto::encode_line(m); }

// One client: connects, says its opening lines, and reports when its login is complete (the
// last `users` page) or failed. Lines are only searched for their type and `more` (JSON keys
// come sorted): decoding every page would time the tool instead of the server.
class Client : public std::enable_shared_from_this<Client> {
public:
    Client(asio::io_context& io, std::vector<std::string> opening) : socket_(io), opening_(std::move(opening)) {}

    std::function<void(bool ok)> on_done;  // the login completed (true) or failed

    void start(const tcp::endpoint& ep) {
        socket_.async_connect(ep, [self = shared_from_this()](boost::system::error_code ec) {
            if (ec) return self->finish(false);
            self->socket_.set_option(tcp::no_delay(true), ec);
            for (auto& l : self->opening_) self->out_.push_back(std::move(l));
            self->write();
            self->read();
        });
    }

    void close() {
        boost::system::error_code ec;
        socket_.close(ec);
    }

private:
    void write() {
        if (out_.empty()) return;
        asio::async_write(socket_, asio::buffer(out_.front()), [self = shared_from_this()](boost::system::error_code ec, std::size_t) {
            if (ec) return;
            self->out_.pop_front();
            self->write();
        });
    }

    void read() {
        socket_.async_read_some(asio::buffer(buf_), [self = shared_from_this()](boost::system::error_code ec, std::size_t n) {
            if (ec) return self->finish(false);
            self->frames_.feed(std::string_view(self->buf_.data(), n), [&](std::string_view l) { self->on_line(l); },
                               [&] { self->finish(false); });
            self->read();
        });
    }

    void on_line(std::string_view l) {
        if (l.find("\"type\":\"ping\"") != std::string_view::npos) {
            auto d = proto::decode_server(l);
            if (d)
                if (const auto* p = std::get_if<proto::Ping>(&d.value())) {
                    out_.push_back(line_of(proto::Pong{p->id}));
                    if (out_.size() == 1) write();
                }
            return;
        }
        if (l.find("\"type\":\"error\"") != std::string_view::npos) {
            if (!done_) std::fprintf(stderr, "logins: %.*s\n", static_cast<int>(std::min<std::size_t>(l.size(), 200)), l.data());
            return finish(false);
        }
        if (l.find("\"type\":\"users\"") != std::string_view::npos && l.find("\"more\":true") == std::string_view::npos)
            finish(true);
    }

    void finish(bool ok) {
        if (done_) return;
        done_ = true;
        if (on_done) on_done(ok);
    }

    tcp::socket socket_;
    std::vector<std::string> opening_;
    std::deque<std::string> out_;
    std::array<char, 16384> buf_{};
    proto::FrameReader frames_;
    bool done_ = false;
};

std::string hello(const std::string& name) { return line_of(proto::Hello{name, proto::PROTOCOL_VERSION, ""}); }

// One server: its lobby (held for the whole run) and the rounds measured on it.
struct Target {
    const char* label;
    tcp::endpoint ep;
    std::vector<std::shared_ptr<Client>> lobby;
    int lobby_ready = 0;
    int lobby_failed = 0;
    std::vector<double> rates;  // logins per second, one per round
    int failed = 0;
};

bool fill_lobby(asio::io_context& io, Target& t, const LoginOptions& opt, const std::string& run) {
    for (int k = 0; k < opt.lobby; ++k) {
        std::vector<std::string> opening{hello(run + "u" + std::to_string(k))};
        if (k % opt.per_table == 0)
            opening.push_back(line_of(proto::CreateTable{"lobby " + std::to_string(k), proto::Role::Red, ""}));
        auto c = std::make_shared<Client>(io, std::move(opening));
        c->on_done = [&t](bool ok) { ++(ok ? t.lobby_ready : t.lobby_failed); };
        c->start(t.ep);
        t.lobby.push_back(c);
        if (k % 50 == 49) run_for(io, 0.01);  // the listen backlog is finite
    }
    wait_until(io, [&] { return t.lobby_ready + t.lobby_failed >= opt.lobby; }, 600);
    run_for(io, 1.0);  // the tables are created
    std::printf("%-9s lobby: %d users logged in (%d failed), %d tables\n", t.label, t.lobby_ready, t.lobby_failed,
                (opt.lobby + opt.per_table - 1) / opt.per_table);
    std::fflush(stdout);
    return t.lobby_ready == opt.lobby;
}

// `opt.logins` logins, `opt.parallel` at a time; each closes once complete.
void measure_round(asio::io_context& io, Target& t, const LoginOptions& opt, const std::string& run, int round) {
    int started = 0, finished = 0, ok = 0;
    std::function<void()> next = [&] {
        if (started >= opt.logins) return;
        const int i = started++;
        auto c = std::make_shared<Client>(io, std::vector<std::string>{hello(run + "n" + std::to_string(round) + "-" + std::to_string(i))});
        c->on_done = [&, c](bool good) {
            ++finished;
            ok += good ? 1 : 0;
            c->close();
            next();
        };
        c->start(t.ep);
    };
    const auto t0 = Clock::now();
    for (int p = 0; p < opt.parallel; ++p) next();
    wait_until(io, [&] { return finished >= opt.logins; }, 600);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    t.failed += opt.logins - ok;
    t.rates.push_back(ok / s);
    std::printf("%-9s round %d: %d logins in %.2f s = %.0f logins/s\n", t.label, round, ok, s, ok / s);
    std::fflush(stdout);
    run_for(io, 0.5);  // the closed connections leave the lobby
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace

int run_logins(const LoginOptions& opt) {
    boost::system::error_code ec;
    const auto addr = asio::ip::make_address(opt.host, ec);
    if (ec || !addr.is_loopback()) {
        std::fprintf(stderr, "xiangqi-loadgen: --host must be a loopback address (127.0.0.0/8 or ::1)\n");
        return 2;
    }
    if (opt.logins <= 0 || opt.lobby < 0 || opt.per_table <= 0 || opt.rounds <= 0 || opt.parallel <= 0) {
        std::fprintf(stderr, "xiangqi-loadgen --logins: bad counts\n");
        return 2;
    }
    asio::io_context io(1);
    std::vector<Target> targets;
    if (opt.baseline_port != 0) targets.push_back(Target{"baseline", tcp::endpoint(addr, opt.baseline_port), {}, 0, 0, {}, 0});
    targets.push_back(Target{"server", tcp::endpoint(addr, opt.port), {}, 0, 0, {}, 0});
    // Names unique to this run: an earlier run's users may still be leaving.
    const std::string run = std::to_string(Clock::now().time_since_epoch().count() % 100000) + "-";
    for (auto& t : targets)
        if (!fill_lobby(io, t, opt, run)) {
            std::fprintf(stderr, "xiangqi-loadgen --logins: %s: the lobby could not be filled\n", t.label);
            return 2;
        }
    for (int r = 0; r < opt.rounds; ++r)
        for (auto& t : targets) measure_round(io, t, opt, run, r);
    for (const auto& t : targets)
        std::printf("%-9s median %.0f logins/s over %d rounds of %d (%d failed), lobby of %d users\n", t.label,
                    median(t.rates), opt.rounds, opt.logins, t.failed, opt.lobby);
    if (targets.size() == 2 && median(targets[0].rates) > 0)
        std::printf("ratio server/baseline: %.1fx logins per second\n", median(targets[1].rates) / median(targets[0].rates));
    bool ok = true;
    for (const auto& t : targets) ok = ok && t.failed == 0;
    return ok ? 0 : 2;
}

}  // namespace xq::loadgen
