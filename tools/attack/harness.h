// Test-client machinery for the attack and load tool: many loopback connections pumped by
// one poll loop, typed server lines counted per type and error code, and a control game whose
// move round trips are timed. The server process itself: server_process.h.
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

double ms_since(Clock::time_point t);

}  // namespace xq::attack
