#include "server/ai/external_engine.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

namespace xq::server {

namespace {

using SteadyClock = std::chrono::steady_clock;

EngineMs ms_until(SteadyClock::time_point t) {
    // Rounded up, so a wait never ends before its deadline.
    auto d = std::chrono::ceil<EngineMs>(t - SteadyClock::now());
    return d.count() < 0 ? EngineMs{0} : d;
}

bool starts_with_word(std::string_view line, std::string_view word) {
    return line.starts_with(word) && (line.size() == word.size() || line[word.size()] == ' ');
}

std::vector<std::string_view> words(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        std::size_t j = i;
        while (j < s.size() && s[j] != ' ' && s[j] != '\t') ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

bool to_int(std::string_view w, long long& out) {
    const char* b = w.data();
    const char* e = w.data() + w.size();
    if (b != e && *b == '+') ++b;
    auto [p, ec] = std::from_chars(b, e, out);
    return ec == std::errc() && p == e;
}

}  // namespace

std::optional<EngineInfo> parse_engine_info(std::string_view line) {
    if (!starts_with_word(line, "info")) return std::nullopt;
    auto w = words(line);
    EngineInfo info;
    bool any = false;
    for (std::size_t i = 1; i + 1 < w.size(); ++i) {
        long long v = 0;
        if (w[i] == "depth" && to_int(w[i + 1], v)) {
            info.depth = int(std::clamp(v, 0LL, 1000LL));
            any = true;
            ++i;
        } else if (w[i] == "nodes" && to_int(w[i + 1], v)) {
            info.nodes = std::max(0LL, v);
            ++i;
        } else if (w[i] == "score" && i + 2 < w.size() && to_int(w[i + 2], v)) {
            if (w[i + 1] == "cp") {
                info.score_cp = int(std::clamp(v, -1'000'000LL, 1'000'000LL));
                info.mate = false;
                any = true;
            } else if (w[i + 1] == "mate") {
                const long long n = std::clamp(v, -1000LL, 1000LL);
                info.score_cp = int(n >= 0 ? ENGINE_MATE_SCORE_CP - n : -ENGINE_MATE_SCORE_CP - n);
                info.mate = true;
                any = true;
            }
            i += 2;
        } else if (w[i] == "pv") {
            // The rest is moves; only a short head of it is kept, each word bounded.
            for (std::size_t k = i + 1; k < w.size() && info.pv_text.size() < ENGINE_PV_WORDS; ++k)
                info.pv_text.emplace_back(w[k].substr(0, 8));
            break;
        } else if (w[i] == "string") {
            break;  // the rest is free text
        }
    }
    if (!any) return std::nullopt;
    return info;
}

std::optional<EngineSpec> parse_engine_spec(std::string_view text, std::string* error) {
    auto fail = [&](std::string m) -> std::optional<EngineSpec> {
        if (error) *error = std::move(m);
        return std::nullopt;
    };
    auto eq = text.find('=');
    if (eq == std::string_view::npos) return fail("--engine wants NAME=PATH, e.g. fairy=/usr/games/fairy-stockfish");
    std::string_view name = text.substr(0, eq);
    std::string_view path = text.substr(eq + 1);
    if (name.empty() || name.size() > MAX_ENGINE_NAME)
        return fail("engine name must be 1.." + std::to_string(MAX_ENGINE_NAME) + " characters");
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
              c == '.'))
            return fail("engine name may use letters, digits, '_', '-' and '.' only");
    if (path.empty() || path.find('\0') != std::string_view::npos) return fail("engine path is empty");
    return EngineSpec{std::string(name), std::string(path)};
}

std::string_view engine_failure_name(EngineFailure f) {
    switch (f) {
    case EngineFailure::None: return "none";
    case EngineFailure::Crashed: return "crashed";
    case EngineFailure::Hung: return "hung";
    case EngineFailure::BadMove: return "bad_move";
    case EngineFailure::NoMove: return "no_move";
    case EngineFailure::Aborted: return "aborted";
    }
    return "none";
}

std::unique_ptr<ExternalEngine> ExternalEngine::start(const EngineSpec& spec, std::string* error) {
    std::string err;
    for (EngineProtocol p : {EngineProtocol::Uci, EngineProtocol::Ucci}) {
        std::unique_ptr<ExternalEngine> e(new ExternalEngine());
        e->spec_ = spec;
        if (!e->spawn(&err)) break;  // cannot run at all: no point trying another dialect
        if (e->handshake(p, &err)) return e;
        e->kill_and_reap();
    }
    if (error) *error = "engine " + spec.name + " (" + spec.path + "): " + err;
    return nullptr;
}

ExternalEngine::~ExternalEngine() {
    if (alive()) {
        send("quit");
        // A polite engine exits at once; give it a moment before the hard way.
        auto until = SteadyClock::now() + EngineMs(300);
        while (SteadyClock::now() < until) {
            if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
                std::lock_guard lock(pid_mutex_);
                pid_ = -1;
                break;
            }
            ::usleep(5000);
        }
    }
    kill_and_reap();
}

bool ExternalEngine::spawn(std::string* error) {
    if (::access(spec_.path.c_str(), X_OK) != 0) {
        *error = "cannot execute: " + std::string(std::strerror(errno));
        return false;
    }
    int sv[2];
    // A socket pair rather than pipes: writes use MSG_NOSIGNAL, so a dead engine yields
    // EPIPE instead of a SIGPIPE that would kill the server.
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        *error = "socketpair: " + std::string(std::strerror(errno));
        return false;
    }
    int report[2];  // the child writes errno here if exec fails; CLOEXEC closes it on success
    if (::pipe2(report, O_CLOEXEC) != 0) {
        *error = "pipe: " + std::string(std::strerror(errno));
        ::close(sv[0]);
        ::close(sv[1]);
        return false;
    }
    int devnull = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    std::string path = spec_.path;  // argv prepared before fork: the child only makes syscalls
    char* argv[] = {path.data(), nullptr};

    pid_t pid = ::fork();
    if (pid == 0) {
        ::setpgid(0, 0);  // a Ctrl-C at the server's terminal is the server's business
        ::signal(SIGPIPE, SIG_DFL);
        ::dup2(sv[1], 0);
        ::dup2(sv[1], 1);
        if (devnull >= 0) ::dup2(devnull, 2);
        ::close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);  // nothing else of the server leaks in
        ::execv(path.c_str(), argv);
        int e = errno;
        [[maybe_unused]] auto n = ::write(report[1], &e, sizeof e);
        ::_exit(127);
    }
    if (pid > 0) ::setpgid(pid, pid);  // also here, so a kill of the group cannot miss it
    ::close(sv[1]);
    ::close(report[1]);
    if (devnull >= 0) ::close(devnull);
    if (pid < 0) {
        *error = "fork: " + std::string(std::strerror(errno));
        ::close(sv[0]);
        ::close(report[0]);
        return false;
    }
    int child_errno = 0;
    ssize_t n;
    do n = ::read(report[0], &child_errno, sizeof child_errno);
    while (n < 0 && errno == EINTR);
    ::close(report[0]);
    {
        std::lock_guard lock(pid_mutex_);
        pid_ = pid;
    }
    fd_ = sv[0];
    if (n == sizeof child_errno) {
        *error = "exec failed: " + std::string(std::strerror(child_errno));
        kill_and_reap();
        return false;
    }
    return true;
}

bool ExternalEngine::handshake(EngineProtocol p, std::string* error) {
    protocol_ = p;
    const bool uci = p == EngineProtocol::Uci;
    if (!send(uci ? "uci" : "ucci")) {
        *error = "the engine exited (or closed its input) before the handshake";
        return false;
    }
    auto deadline = SteadyClock::now() + ENGINE_HANDSHAKE_TIMEOUT;
    bool variant_xiangqi = false;
    for (;;) {
        auto line = read_line(ms_until(deadline));
        if (!line) {
            *error = eof_ ? "the engine exited during the handshake" : uci ? "no uciok in time" : "no ucciok in time";
            return false;
        }
        if (starts_with_word(*line, "id")) {
            auto w = words(*line);
            if (w.size() >= 3 && w[1] == "name")
                id_name_ = std::string(line->substr(std::size_t(w[2].data() - line->data()), 80));
        } else if (uci && line->starts_with("option name Skill Level ")) {
            auto w = words(*line);
            long long lo = 0, hi = 0;
            bool have_lo = false, have_hi = false;
            for (std::size_t i = 0; i + 1 < w.size(); ++i) {
                if (w[i] == "min") have_lo = to_int(w[i + 1], lo);
                if (w[i] == "max") have_hi = to_int(w[i + 1], hi);
            }
            if (have_lo && have_hi && lo <= hi && lo >= -1000 && hi <= 1000) skill_level_ = SpinRange{int(lo), int(hi)};
        } else if (uci && line->starts_with("option name UCI_Variant ")) {
            auto w = words(*line);
            variant_xiangqi = std::find(w.begin(), w.end(), "xiangqi") != w.end();
        } else if (*line == (uci ? "uciok" : "ucciok")) {
            break;
        }
    }
    if (uci && variant_xiangqi) {
        // Fairy-Stockfish plays many variants; it numbers xiangqi ranks 1-10.
        send("setoption name UCI_Variant value xiangqi");
        ranks_from_one_ = true;
    }
    if (!send("isready")) {
        *error = "cannot write to the engine";
        return false;
    }
    for (;;) {
        auto line = read_line(ms_until(deadline));
        if (!line) {
            *error = eof_ ? "the engine exited during the handshake" : "no readyok in time";
            return false;
        }
        if (*line == "readyok") return true;
    }
}

bool ExternalEngine::set_option(std::string_view name, std::string_view value) {
    if (!alive()) return false;
    std::string line = protocol_ == EngineProtocol::Uci
                           ? "setoption name " + std::string(name) + " value " + std::string(value)
                           : "setoption " + std::string(name) + " " + std::string(value);
    return send(line);
}

bool ExternalEngine::send(std::string_view line) {
    if (fd_ < 0) return false;
    std::string data(line);
    data.push_back('\n');
    std::size_t off = 0;
    while (off < data.size()) {
        ssize_t n = ::send(fd_, data.data() + off, data.size() - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        off += std::size_t(n);
    }
    return true;
}

std::optional<std::string> ExternalEngine::read_line(EngineMs timeout) {
    auto deadline = SteadyClock::now() + timeout;
    for (;;) {
        auto nl = inbox_.find('\n');
        if (nl != std::string::npos || inbox_.size() >= MAX_ENGINE_LINE) {
            std::size_t len = nl == std::string::npos ? MAX_ENGINE_LINE : nl;
            std::string line = inbox_.substr(0, len);
            inbox_.erase(0, nl == std::string::npos ? len : len + 1);
            while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
            return line;
        }
        if (eof_ || fd_ < 0) return std::nullopt;
        pollfd p{fd_, POLLIN, 0};
        int r = ::poll(&p, 1, int(ms_until(deadline).count()));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return std::nullopt;
        char buf[4096];
        ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            eof_ = true;
            continue;  // hand out what is left, then report EOF
        }
        inbox_.append(buf, std::size_t(n));
    }
}

bool ExternalEngine::alive() const { return pid_ > 0 && fd_ >= 0 && !eof_; }

void ExternalEngine::abort() {
    aborted_ = true;
    std::lock_guard lock(pid_mutex_);
    if (pid_ > 0) {
        ::kill(-pid_, SIGKILL);
        ::kill(pid_, SIGKILL);
    }
}

void ExternalEngine::kill_and_reap() {
    {
        std::lock_guard lock(pid_mutex_);
        if (pid_ > 0) {
            // The whole process group: an engine's own helper processes go with it.
            ::kill(-pid_, SIGKILL);
            ::kill(pid_, SIGKILL);
            while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
            }
            pid_ = -1;
        }
    }
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    eof_ = true;
}

std::string ExternalEngine::to_engine(Move m) const {
    auto sq = [this](Square s) {
        return std::string(1, char('a' + file_of(s))) + std::to_string(rank_of(s) + (ranks_from_one_ ? 1 : 0));
    };
    return sq(m.from()) + sq(m.to());
}

std::optional<Move> ExternalEngine::from_engine(std::string_view text, const Position& pos) const {
    const int base = ranks_from_one_ ? 1 : 0;
    std::size_t i = 0;
    auto square = [&]() -> std::optional<Square> {
        if (i >= text.size() || text[i] < 'a' || text[i] > 'i') return std::nullopt;
        int file = text[i++] - 'a';
        if (i >= text.size() || text[i] < '0' || text[i] > '9') return std::nullopt;
        int rank = text[i++] - '0';
        if (i < text.size() && text[i] >= '0' && text[i] <= '9') rank = rank * 10 + (text[i++] - '0');
        rank -= base;
        if (rank < 0 || rank >= RANK_NB) return std::nullopt;
        return make_square(file, rank);
    };
    auto from = square();
    auto to = square();
    if (!from || !to || i != text.size()) return std::nullopt;
    Move m(*from, *to);
    MoveList legal;
    pos.generate_legal(legal);
    if (!legal.contains(m)) return std::nullopt;
    return m;
}

EngineReply ExternalEngine::best_move(const Position& start, const std::vector<Move>& moves,
                                      const EngineLimits& limits) {
    const auto began = SteadyClock::now();
    EngineReply reply;
    auto finish = [&](EngineFailure f, std::string detail) {
        if (aborted_) f = EngineFailure::Aborted;
        reply.failure = f;
        reply.detail = std::move(detail);
        reply.took = std::chrono::duration_cast<EngineMs>(SteadyClock::now() - began);
        if (f != EngineFailure::None && f != EngineFailure::NoMove) kill_and_reap();
        return reply;
    };

    Position pos = start;
    std::string position = "position fen " + start.fen();
    if (!moves.empty()) position += " moves";
    for (Move m : moves) {
        UndoInfo undo;
        pos.do_move(m, undo);
        position += ' ';
        position += to_engine(m);
    }
    if (!pos.has_legal_move()) return finish(EngineFailure::NoMove, "no legal move in the position");
    if (aborted_ || !alive()) return finish(EngineFailure::Crashed, "the engine is not running");

    const EngineMs movetime = std::clamp(limits.movetime, EngineMs(1), MAX_ENGINE_MOVETIME);
    // UCCI's "go time" is the time for this move in milliseconds, like UCI's movetime.
    std::string go = (protocol_ == EngineProtocol::Uci ? "go movetime " : "go time ") + std::to_string(movetime.count());
    if (!send(position) || !send(go)) return finish(EngineFailure::Crashed, "the engine closed its input");

    auto deadline = began + movetime + ENGINE_LATENCY_ALLOWANCE;
    bool stopped = false;
    for (;;) {
        if (limits.cancel && limits.cancel->load()) return finish(EngineFailure::Aborted, "the search was cancelled");
        const bool slice = limits.cancel && ms_until(deadline) > ENGINE_CANCEL_POLL;
        auto line = read_line(slice ? ENGINE_CANCEL_POLL : ms_until(deadline));
        if (!line && slice && !eof_) continue;  // not yet at the deadline: check the cancel flag
        // An engine that never stops talking must not hold the search past its deadline: once
        // it has passed, any line but the answer counts as silence (stop, then Hung).
        if (line && !eof_ && SteadyClock::now() >= deadline && *line != "nobestmove" &&
            !starts_with_word(*line, "bestmove"))
            line.reset();
        if (!line) {
            if (eof_) {
                // The engine closed its output; it has usually exited too. Never block on it.
                std::string how = "the engine closed its output";
                auto until = SteadyClock::now() + EngineMs(200);
                {
                    std::lock_guard lock(pid_mutex_);
                    while (pid_ > 0 && SteadyClock::now() < until) {
                        int status = 0;
                        if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                            pid_ = -1;
                            how = WIFSIGNALED(status)
                                      ? "the engine died of signal " + std::to_string(WTERMSIG(status))
                                      : "the engine exited with status " + std::to_string(WEXITSTATUS(status));
                            break;
                        }
                        ::usleep(2000);
                    }
                }
                return finish(EngineFailure::Crashed, how);
            }
            if (stopped) return finish(EngineFailure::Hung, "no bestmove, even after stop");
            send("stop");
            stopped = true;
            deadline = SteadyClock::now() + ENGINE_STOP_GRACE;
            continue;
        }
        if (limits.on_info && starts_with_word(*line, "info")) {
            if (auto info = parse_engine_info(*line)) {
                info->elapsed = std::chrono::duration_cast<EngineMs>(SteadyClock::now() - began);
                Position line_pos = pos;
                for (const auto& word : info->pv_text) {
                    auto m = from_engine(word, line_pos);
                    if (!m) break;
                    info->pv.push_back(*m);
                    UndoInfo undo;
                    line_pos.do_move(*m, undo);
                }
                limits.on_info(*info);
            }
            continue;
        }
        if (*line == "nobestmove") return finish(EngineFailure::NoMove, *line);
        if (!starts_with_word(*line, "bestmove")) continue;  // info, comments, noise
        auto w = words(*line);
        if (w.size() < 2) return finish(EngineFailure::BadMove, *line);
        if (w[1] == "(none)" || w[1] == "0000") return finish(EngineFailure::NoMove, *line);
        auto m = from_engine(w[1], pos);
        if (!m) return finish(EngineFailure::BadMove, "illegal or malformed bestmove '" + std::string(w[1].substr(0, 16)) + "'");
        reply.move = *m;
        return finish(EngineFailure::None, *line);
    }
}

}  // namespace xq::server
