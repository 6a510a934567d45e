#include "harness.h"

#include <arpa/inet.h>
#include <poll.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

namespace xq::attack {

namespace {

constexpr std::size_t MAX_SERVER_LINE = 4 * proto::MAX_LINE_BYTES;
// A client's unread lines beyond this are dropped oldest first (counters keep counting).
constexpr std::size_t MAX_INBOX = 20000;
constexpr int CONNECT_TIMEOUT_MS = 5000;

}  // namespace

bool is_loopback(const std::string& host) {
    if (host == "localhost") return true;
    in_addr a{};
    if (::inet_pton(AF_INET, host.c_str(), &a) == 1) return (ntohl(a.s_addr) >> 24) == 127;
    return host == "::1";
}

double ms_since(Clock::time_point t) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

bool Client::connect(const Target& t, const std::string& source, int rcvbuf) {
    if (rcvbuf > 0) sock_.set_receive_buffer(rcvbuf);
    eof_ = false;
    return sock_.connect(t.host, t.port, CONNECT_TIMEOUT_MS, source).empty();
}

bool Client::read_now() {
    if (!sock_.is_open()) return false;
    std::vector<std::string> lines;
    const bool alive = sock_.read_available(lines, MAX_SERVER_LINE);
    for (auto& text : lines) {
        Line l;
        auto d = proto::decode_server(text);
        if (d.ok()) {
            l.type = std::string(proto::type_name(d.value()));
            if (const auto* e = std::get_if<proto::Error>(&d.value()))
                ++errors_[std::string(proto::error_code_name(e->code))];
            // Bots answer the server's idle ping, as every real client does.
            if (const auto* p = std::get_if<proto::Ping>(&d.value())) send(proto::Pong{p->id});
            l.msg = std::move(d.value());
        } else {
            l.type = "?";
            ++undecodable_;
        }
        ++types_[l.type];
        l.text = std::move(text);
        if (observer) observer(l);
        inbox_.push_back(std::move(l));
        if (inbox_.size() > MAX_INBOX) inbox_.pop_front();
    }
    if (!alive) eof_ = true;
    return alive;
}

std::optional<Line> Client::take(std::string_view type, const std::function<bool(const Line&)>& pred) {
    for (auto it = inbox_.begin(); it != inbox_.end(); ++it) {
        if (it->type == type && (!pred || pred(*it))) {
            Line l = std::move(*it);
            inbox_.erase(inbox_.begin(), it + 1);
            return l;
        }
    }
    return std::nullopt;
}

int Client::count(std::string_view type) const {
    const auto it = types_.find(std::string(type));
    return it == types_.end() ? 0 : it->second;
}

int Client::error_count(std::string_view code) const {
    const auto it = errors_.find(std::string(code));
    return it == errors_.end() ? 0 : it->second;
}

Client& Hub::add(std::string name) {
    clients_.push_back(std::make_unique<Client>(std::move(name)));
    return *clients_.back();
}

void Hub::remove_closed() {
    std::erase_if(clients_, [](const auto& c) { return c->closed_locally(); });
}

void Hub::pump(int ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(ms);
    std::vector<pollfd> fds;
    std::vector<Client*> who;
    for (bool first = true;; first = false) {
        fds.clear();
        who.clear();
        for (auto& c : clients_) {
            if (!c->reading || !c->open()) continue;
            fds.push_back({c->fd(), POLLIN, 0});
            who.push_back(c.get());
        }
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (!first && left <= 0) return;
        if (fds.empty()) {
            if (left > 0) ::poll(nullptr, 0, int(std::min<long long>(left, 10)));
            if (ms == 0) return;
            continue;
        }
        const int r = ::poll(fds.data(), fds.size(), int(std::max<long long>(left, 0)));
        if (r <= 0) return;
        for (std::size_t i = 0; i < fds.size(); ++i)
            if (fds[i].revents != 0) who[i]->read_now();
        return;  // one batch; callers loop with their own predicate
    }
}

bool Hub::wait(int ms, const std::function<bool()>& pred) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(ms);
    while (!pred()) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) return pred();
        pump(int(std::min<long long>(left, 50)));
    }
    return true;
}

std::optional<Line> Hub::expect(Client& c, std::string_view type, int ms,
                                const std::function<bool(const Line&)>& pred) {
    std::optional<Line> got;
    wait(ms, [&] {
        got = c.take(type, pred);
        return got.has_value() || !c.open();
    });
    if (!got) got = c.take(type, pred);
    return got;
}

Client* Hub::join(const Target& t, std::string name, std::string* why, const std::string& source) {
    Client& c = add(name);
    if (!c.connect(t, source)) {
        if (why) *why = "connect failed";
        return nullptr;
    }
    proto::Hello h;
    h.name = name;
    c.send(h);
    std::optional<Line> reply;
    wait(5000, [&] {
        for (const auto& l : c.inbox())
            if (l.type == "welcome" || l.type == "error") return true;
        return !c.open();
    });
    for (auto& l : c.inbox()) {
        if (l.type == "welcome") {
            c.session_token = std::get<proto::Welcome>(*l.msg).resume_token;
            return &c;
        }
        if (l.type == "error") {
            if (why) *why = "hello refused: " + l.text;
            return nullptr;
        }
    }
    if (why) *why = c.open() ? "no welcome within 5 s" : "closed during hello";
    return nullptr;
}

double Stats::pct(double p) const {
    if (us.empty()) return 0;
    std::vector<double> v = us;
    // Nearest rank: the smallest sample with at least p% of the samples at or below it.
    const auto rank = std::size_t(std::ceil(p / 100.0 * double(v.size())));
    const std::size_t k = std::min(v.size() - 1, rank > 0 ? rank - 1 : 0);
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(k), v.end());
    return v[k];
}

ControlGame::ControlGame(Hub& hub, const Target& t, std::string prefix, std::uint32_t seed)
    : hub_(hub), target_(t), prefix_(std::move(prefix)), rng_(seed) {}

bool ControlGame::start(std::string* why) {
    red_ = hub_.join(target_, prefix_ + "r", why);
    black_ = hub_.join(target_, prefix_ + "b", why);
    if (!red_ || !black_) return false;
    if (!new_table()) {
        if (why) *why = why_;
        return false;
    }
    return true;
}

bool ControlGame::new_table() {
    if (table_ != 0) {
        red_->send(proto::Leave{table_});
        black_->send(proto::Leave{table_});
        hub_.expect(*red_, "left", 5000);
        hub_.expect(*black_, "left", 5000);
    }
    proto::CreateTable c;
    c.name = prefix_ + "game" + std::to_string(++tables_made_);
    c.as = proto::Role::Red;
    red_->send(c);
    auto snap = hub_.expect(*red_, "table_snapshot", 5000);
    if (!snap) {
        why_ = "no snapshot after create_table";
        return false;
    }
    table_ = std::get<proto::TableSnapshot>(*snap->msg).table.id;
    black_->send(proto::Join{table_, proto::Role::Black});
    if (!hub_.expect(*black_, "table_snapshot", 5000)) {
        why_ = "no snapshot after join";
        return false;
    }
    game_ = Game();
    ply_ = 0;
    return true;
}

bool ControlGame::step(Stats& stats, int timeout_ms) {
    const auto due = last_step_ + std::chrono::milliseconds(min_interval_ms);
    while (Clock::now() < due)
        hub_.pump(int(std::chrono::duration_cast<std::chrono::milliseconds>(due - Clock::now()).count()) + 1);
    last_step_ = Clock::now();
    if (game_.over()) return new_table();
    const MoveList legal = game_.legal_moves();
    const Move m = legal[int(rng_() % unsigned(legal.size()))];
    Client* mover = game_.side_to_move() == RED ? red_ : black_;
    proto::MoveRequest req;
    req.table = table_;
    req.ply = ply_;
    req.move = move_to_iccs(m);
    const int want = ply_ + 1;
    const auto t0 = Clock::now();
    mover->send(req);
    auto made = hub_.expect(*mover, "move_made", timeout_ms, [&](const Line& l) {
        const auto& mm = std::get<proto::MoveMade>(*l.msg);
        return mm.table == table_ && mm.ply == want;
    });
    if (!made) {
        std::string last;
        for (const auto& l : mover->inbox())
            if (l.type == "error") last = l.text;
        why_ = "no move_made for ply " + std::to_string(want) + (last.empty() ? "" : " (" + last + ")") +
               (mover->open() ? "" : " (connection closed)");
        return false;
    }
    stats.add(ms_since(t0) * 1000.0);
    game_.play(m);
    ply_ = want;
    ++moves_;
    // Keep the other side's inbox short: it saw the same move_made.
    Client* other = mover == red_ ? black_ : red_;
    other->take("move_made", [&](const Line& l) { return std::get<proto::MoveMade>(*l.msg).ply == want; });
    const auto& mm = std::get<proto::MoveMade>(*made->msg);
    if (mm.fen != game_.position().fen()) {
        why_ = "server FEN differs from the local board at ply " + std::to_string(want);
        return false;
    }
    // The local referee decides the end (its game_over line may not have arrived yet).
    if (game_.over() || ply_ >= 300) {
        hub_.pump(0);
        mover->take("game_over");
        other->take("game_over");
        return new_table();
    }
    return true;
}

long settled_rss_kb(int pid) {
    long last = rss_kb(pid);
    for (int i = 0; i < 30; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        const long now = rss_kb(pid);
        if (now == last) return now;
        last = now;
    }
    return last;
}

long rss_kb(int pid) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/status");
    std::string key;
    while (f >> key) {
        if (key == "VmRSS:") {
            long kb = 0;
            f >> kb;
            return kb;
        }
        std::string rest;
        std::getline(f, rest);
    }
    return -1;
}

int open_fds(int pid) {
    std::error_code ec;
    int n = 0;
    for (auto it = std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd", ec);
         !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
        ++n;
    return ec ? -1 : n;
}

}  // namespace xq::attack

#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <thread>

namespace xq::attack {

bool ServerProc::start(const std::string& bin, const std::vector<std::string>& args,
                       const std::string& log_path, const Target& t, int nofile, std::string* why) {
    stop();
    std::vector<std::string> argv_s;
    argv_s.push_back(bin);
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    int console_pipe[2] = {-1, -1};
    if (with_console && ::pipe2(console_pipe, O_CLOEXEC) != 0) {
        if (why) *why = "no pipe for the console";
        return false;
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        if (why) *why = "fork failed";
        if (with_console) {
            ::close(console_pipe[0]);
            ::close(console_pipe[1]);
        }
        return false;
    }
    if (pid == 0) {
        const int fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            ::dup2(fd, 1);
            ::dup2(fd, 2);
            ::close(fd);
        }
        if (with_console) {
            ::dup2(console_pipe[0], 0);  // the copy is not close-on-exec
        } else {
            const int devnull = ::open("/dev/null", O_RDONLY);
            if (devnull >= 0) ::dup2(devnull, 0);
        }
        if (nofile > 0) {
            rlimit rl{rlim_t(nofile), rlim_t(nofile)};
            ::setrlimit(RLIMIT_NOFILE, &rl);
        }
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    pid_ = pid;
    if (with_console) {
        ::close(console_pipe[0]);
        console_fd_ = console_pipe[1];
    }
    // Ready when a TCP connect succeeds.
    const auto deadline = Clock::now() + std::chrono::seconds(20);
    while (Clock::now() < deadline) {
        if (!running()) {
            if (why) *why = "server exited at start, see " + log_path;
            pid_ = -1;
            return false;
        }
        client::LineSocket s;
        if (s.connect(t.host, t.port, 500).empty()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (why) *why = "server did not listen within 20 s";
    return false;
}

namespace {

int exit_code(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

ServerProc::~ServerProc() {
    if (pid_ <= 0) return;
    const int pid = pid_;
    const int code = stop();
    if (code != 0) std::fprintf(stderr, "xiangqi-attack: server %d ended with %d when stopped\n", pid, code);
}

bool ServerProc::running() const {
    if (pid_ <= 0 || ended_) return false;
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) ended_ = exit_code(status);
    return r == 0;
}

bool ServerProc::console(const std::string& line) {
    if (console_fd_ < 0) return false;
    const std::string text = line + "\n";
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(console_fd_, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += std::size_t(n);
    }
    return true;
}

void ServerProc::close_console() {
    if (console_fd_ >= 0) ::close(console_fd_);
    console_fd_ = -1;
}

void ServerProc::kill9() {
    close_console();
    if (pid_ <= 0) return;
    if (!ended_) {
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
    pid_ = -1;
    ended_.reset();
}

int ServerProc::stop() {
    close_console();
    if (pid_ <= 0) return -1;
    if (ended_) {
        // It had ended before it was asked to (a crash, or an exit of its own).
        const int code = *ended_;
        pid_ = -1;
        ended_.reset();
        return code;
    }
    ::kill(pid_, SIGTERM);
    int status = 0;
    // A sanitizer build runs LeakSanitizer at exit, which takes a moment on a loaded machine.
    const auto deadline = Clock::now() + std::chrono::seconds(20);
    while (Clock::now() < deadline) {
        const pid_t r = ::waitpid(pid_, &status, WNOHANG);
        if (r == pid_) {
            pid_ = -1;
            return exit_code(status);
        }
        if (r < 0) {
            pid_ = -1;
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    kill9();
    return 128 + SIGKILL;
}

std::string free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    socklen_t len = sizeof a;
    std::string port;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0)
        port = std::to_string(ntohs(a.sin_port));
    ::close(fd);
    return port;
}

}  // namespace xq::attack
