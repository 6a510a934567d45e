// Test-client machinery for the attack and load tool: many loopback connections pumped by
// one poll loop, typed server lines counted per type and error code, a control game whose
// move round trips are timed, and server process readings (RSS, open descriptors).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "line_socket.h"
#include "protocol/codec.h"
#include "xiangqi/game.h"
#include "xiangqi/position.h"

namespace xq::attack {

using Clock = std::chrono::steady_clock;

// Where the server under test listens. Only loopback addresses are accepted.
struct Target {
    std::string host = "127.0.0.1";
    std::string port;
};
bool is_loopback(const std::string& host);

// A received server line, decoded once.
struct Line {
    std::string type;  // "?" when the line did not decode (a protocol violation)
    std::string text;
    std::optional<proto::ServerMessage> msg;
};

class Client {
public:
    explicit Client(std::string name) : name_(std::move(name)) {}

    // TCP connect only (no hello); `source` picks a 127.0.0.x source address.
    bool connect(const Target& t, const std::string& source = {}, int rcvbuf = 0);
    bool send(const proto::ClientMessage& m) { return sock_.send_line(proto::encode(m)); }
    bool send_raw(std::string_view bytes) { return sock_.send_raw(bytes); }
    void close() { sock_.close(); }

    // Reads what is available; false once the peer has closed (or on error).
    bool read_now();
    bool open() const { return sock_.is_open() && !eof_; }
    bool closed_locally() const { return !sock_.is_open(); }
    int fd() const { return sock_.fd(); }
    const std::string& name() const { return name_; }

    std::deque<Line>& inbox() { return inbox_; }
    // The first inbox line of that type (and passing `pred`), removed with everything before it.
    std::optional<Line> take(std::string_view type, const std::function<bool(const Line&)>& pred = {});

    int count(std::string_view type) const;
    int error_count(std::string_view code) const;
    const std::map<std::string, int>& error_codes() const { return errors_; }
    int undecodable() const { return undecodable_; }
    std::string session_token;  // resume token from welcome
    // Called for every line as it arrives (before anything can take it from the inbox).
    std::function<void(const Line&)> observer;
    bool reading = true;  // false: the hub never reads this socket (a client that stalls)

private:
    std::string name_;
    client::LineSocket sock_;
    bool eof_ = false;
    std::deque<Line> inbox_;
    std::map<std::string, int> types_;
    std::map<std::string, int> errors_;
    int undecodable_ = 0;
};

// All clients of a scenario; pumping reads every reading client so none stalls the server.
class Hub {
public:
    Client& add(std::string name);
    // Deletes the clients this tool closed itself (pointers to them become invalid).
    void remove_closed();
    std::vector<std::unique_ptr<Client>>& clients() { return clients_; }

    // Reads one batch: what the first readiness within ms brings (any client's), so it may
    // return at once; to let everything in flight arrive, drain.
    void pump(int ms);
    // Pumps until pred() or the deadline; returns pred().
    bool wait(int ms, const std::function<bool()>& pred);
    // Reads everything that arrives for the whole of ms.
    void drain(int ms) { wait(ms, [] { return false; }); }
    // Pumps until `c` has a line of that type; returns it (removed from the inbox).
    std::optional<Line> expect(Client& c, std::string_view type, int ms,
                               const std::function<bool(const Line&)>& pred = {});

    // connect + hello + welcome. nullptr on failure (reason in `why`).
    Client* join(const Target& t, std::string name, std::string* why = nullptr,
                 const std::string& source = {});

private:
    std::vector<std::unique_ptr<Client>> clients_;
};

// Percentiles of microsecond samples.
struct Stats {
    std::vector<double> us;
    void add(double v) { us.push_back(v); }
    double pct(double p) const;
    std::size_t n() const { return us.size(); }
};

// Two clients playing random legal moves at one table; each step times the mover's move
// until its own move_made arrives (the round trip the load goals are stated in).
class ControlGame {
public:
    ControlGame(Hub& hub, const Target& t, std::string prefix, std::uint32_t seed);
    bool start(std::string* why = nullptr);
    // Plays one move; false on an unexpected reply or timeout (reason in why()). Moves are
    // paced (min_interval_ms apart) like a fast human, far under the server's flood limit.
    bool step(Stats& stats, int timeout_ms = 5000);
    int min_interval_ms = 40;
    proto::TableId table() const { return table_; }
    Client* red() const { return red_; }
    Client* black() const { return black_; }
    int ply() const { return ply_; }
    const Position& position() const { return game_.position(); }
    const std::string& why() const { return why_; }
    int moves_played() const { return moves_; }

private:
    bool new_table();
    Hub& hub_;
    Target target_;
    std::string prefix_;
    std::mt19937 rng_;
    Client* red_ = nullptr;
    Client* black_ = nullptr;
    proto::TableId table_ = 0;
    Game game_;  // the same referee as the server's: it knows when the game is over
    int ply_ = 0;
    int moves_ = 0;
    int tables_made_ = 0;
    Clock::time_point last_step_{};
    std::string why_;
};

// The server process as the kernel sees it.
long rss_kb(int pid);
// The resident size once it holds still (two readings 100 ms apart agree, at most 3 s): a
// server just started may still be filling its AI workers' tables on other threads.
long settled_rss_kb(int pid);
int open_fds(int pid);

double ms_since(Clock::time_point t);

}  // namespace xq::attack

namespace xq::attack {

// A server process started by the tool (fork/exec), so it can be measured and killed.
// Scenarios stop their server through Session, which reports the exit status as a check;
// one still running here is stopped the same way and a bad exit is printed.
class ServerProc {
public:
    ServerProc() = default;
    ~ServerProc();
    ServerProc(const ServerProc&) = delete;
    ServerProc& operator=(const ServerProc&) = delete;

    // Starts `bin args...` with stdout/stderr appended to log_path; nofile > 0 caps its file
    // descriptors (RLIMIT_NOFILE). Waits until the port accepts a TCP connection.
    bool start(const std::string& bin, const std::vector<std::string>& args, const std::string& log_path,
               const Target& t, int nofile = 0, std::string* why = nullptr);
    void kill9();
    // Set before start(): the server's stdin is a pipe its operator console reads, and
    // console() writes one command line to it (the console's answers go to the log).
    bool with_console = false;
    bool console(const std::string& line);
    // SIGTERM, then SIGKILL after 5 s. Returns the exit code, 128 + the signal that ended
    // it, or -1 when no server was started. A clean stop is 0: the server exits 0 on
    // SIGTERM (and, in a sanitizer build, LeakSanitizer has then found nothing).
    int stop();
    bool running() const;
    int pid() const { return pid_; }

private:
    void close_console();
    int pid_ = -1;
    int console_fd_ = -1;  // the write end of the console pipe
    // The status of a server that running() found ended (waitpid reaps it only once).
    mutable std::optional<int> ended_;
};

// A TCP port on 127.0.0.1 that was free a moment ago.
std::string free_port();

}  // namespace xq::attack
