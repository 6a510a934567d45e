// An external UCI or UCCI engine (Fairy-Stockfish, Pikafish, ElephantEye...) run as a child
// process with its stdin/stdout on a socket pair (no shell). Searches are blocking, bounded
// in time, and meant for a worker thread; a crashed, hung or babbling engine is reported as
// a failure (its game is lost) and never takes the server down.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "xiangqi/position.h"
#include "xiangqi/types.h"

namespace xq::server {

using EngineMs = std::chrono::milliseconds;

// Longest the engine may take to answer uci/ucci (or isready) before it counts as broken.
constexpr EngineMs ENGINE_HANDSHAKE_TIMEOUT{5000};
// After its time is up an engine gets "stop" and this long to answer before it is killed.
constexpr EngineMs ENGINE_STOP_GRACE{1000};
// Extra time allowed beyond the requested move time (process scheduling, output latency).
constexpr EngineMs ENGINE_LATENCY_ALLOWANCE{500};
// Longest single line read from an engine; longer lines are cut (UCI option lists are long).
constexpr std::size_t MAX_ENGINE_LINE = 64 * 1024;
// Longest engine name accepted from --engine NAME=PATH.
constexpr std::size_t MAX_ENGINE_NAME = 20;
// Longest move time the server asks of an engine.
constexpr EngineMs MAX_ENGINE_MOVETIME{60'000};

struct EngineSpec {
    std::string name;  // shown to players next to the built-in AI, e.g. "fairy"
    std::string path;  // executable, run directly (no shell, no PATH lookup)
};

// "NAME=PATH": NAME 1..20 of [A-Za-z0-9_.-], PATH non-empty. nullopt and why otherwise.
std::optional<EngineSpec> parse_engine_spec(std::string_view text, std::string* error = nullptr);

enum class EngineProtocol { Uci, Ucci };

enum class EngineFailure {
    None,
    Crashed,   // the process died or closed its output
    Hung,      // no bestmove in time, not even after "stop"
    BadMove,   // bestmove text that is not a legal move of the position
    NoMove,    // the engine said it has no move (the position is already lost)
    Aborted,   // the server cancelled the search (abort())
};
std::string_view engine_failure_name(EngineFailure f);

// What an engine's "info" line said while it searched (fields it did not give stay 0).
struct EngineInfo {
    int depth = 0;
    int score_cp = 0;     // from the side to move; a mate in n is +-(MATE_SCORE_CP - n)
    bool mate = false;
    std::int64_t nodes = 0;
    EngineMs elapsed{0};  // since the search began
    // The "pv" words as the engine wrote them (at most ENGINE_PV_WORDS, not yet checked) ...
    std::vector<std::string> pv_text;
    // ... and as moves: the leading part of pv_text that is legal, move after move, from the
    // searched position (best_move fills it; junk never gets further than pv_text).
    std::vector<Move> pv;
};
constexpr std::size_t ENGINE_PV_WORDS = 8;
constexpr int ENGINE_MATE_SCORE_CP = 100'000;
// How often a search checks its cancel flag.
constexpr EngineMs ENGINE_CANCEL_POLL{50};

struct EngineLimits {
    EngineMs movetime{1000};  // time for this move (clamped to 1..MAX_ENGINE_MOVETIME)
    // Set from another thread to give up the search: best_move returns Aborted soon after
    // (and the process is gone). Null: never cancelled.
    const std::atomic<bool>* cancel = nullptr;
    // Called (on the searching thread) for each "info" line with a depth or a score.
    std::function<void(const EngineInfo&)> on_info;
};

// Parses a UCI/UCCI "info ..." line; nullopt when it carries neither depth nor score.
std::optional<EngineInfo> parse_engine_info(std::string_view line);

struct EngineReply {
    Move move;  // legal in the position when failure == None
    EngineFailure failure = EngineFailure::None;
    std::string detail;  // what the engine said or did, for logs and the game record
    EngineMs took{0};
};

class ExternalEngine {
public:
    // Runs the engine and completes the handshake (UCI first; if the engine does not answer
    // "uciok", it is restarted and spoken to in UCCI). nullptr and a message on failure.
    static std::unique_ptr<ExternalEngine> start(const EngineSpec& spec, std::string* error);
    ~ExternalEngine();  // "quit", then SIGKILL if it lingers; the child is always reaped
    ExternalEngine(const ExternalEngine&) = delete;
    ExternalEngine& operator=(const ExternalEngine&) = delete;

    const EngineSpec& spec() const { return spec_; }
    EngineProtocol protocol() const { return protocol_; }
    const std::string& id_name() const { return id_name_; }  // from "id name ..."
    // True when the engine numbers ranks 1-10 (Fairy-Stockfish's xiangqi); 0-9 otherwise.
    bool ranks_from_one() const { return ranks_from_one_; }
    bool alive() const;
    pid_t pid() const { return pid_; }
    // The UCI "Skill Level" spin option, when the engine offers one (Fairy-Stockfish: -20..20).
    struct SpinRange {
        int min = 0;
        int max = 0;
    };
    const std::optional<SpinRange>& skill_level() const { return skill_level_; }
    // "setoption name NAME value VALUE" (UCI) or "setoption NAME VALUE" (UCCI). False when
    // the engine is gone.
    bool set_option(std::string_view name, std::string_view value);

    // Searches the position after `moves` from `start` and returns a legal move or the
    // failure. After any failure but NoMove the process is gone; start a new engine.
    EngineReply best_move(const Position& start, const std::vector<Move>& moves, const EngineLimits& limits);
    // Callable from any thread: kills the process, so a running best_move() returns Aborted.
    void abort();

    // Move text in this engine's dialect and back (validated against the legal moves).
    std::string to_engine(Move m) const;
    std::optional<Move> from_engine(std::string_view text, const Position& pos) const;

private:
    ExternalEngine() = default;
    bool spawn(std::string* error);
    bool handshake(EngineProtocol p, std::string* error);
    bool send(std::string_view line);
    // The next line within `timeout`; nullopt on timeout, EOF sets eof_.
    std::optional<std::string> read_line(EngineMs timeout);
    void kill_and_reap();

    EngineSpec spec_;
    EngineProtocol protocol_ = EngineProtocol::Uci;
    std::string id_name_;
    bool ranks_from_one_ = false;
    std::optional<SpinRange> skill_level_;
    pid_t pid_ = -1;
    int fd_ = -1;
    bool eof_ = false;
    std::string inbox_;  // bytes read but not yet returned as lines
    std::atomic<bool> aborted_{false};
    mutable std::mutex pid_mutex_;  // guards kill() against reaping (pid reuse)
};

}  // namespace xq::server
