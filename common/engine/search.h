// The AI: searches a position and returns a move. No I/O; progress goes through a callback.
// This is the interface the server, the engine executable and the tests share.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "xiangqi/position.h"

namespace xq::engine {

// What bounds one search. Zero means "no limit of that kind".
struct Limits {
    int depth = 0;
    std::uint64_t nodes = 0;
    int movetime_ms = 0;
    int time_ms[COLOR_NB] = {0, 0};  // remaining clock per colour
    int inc_ms[COLOR_NB] = {0, 0};
    int movestogo = 0;
    // An explicit budget (plan_move_time() from a table clock): when hard_ms > 0 it replaces
    // movetime and the clock fields above.
    int soft_ms = 0;
    int hard_ms = 0;
    bool infinite = false;
    // UCI `go ponder`: while *pondering is true no clock limit applies (the search runs on
    // like an infinite one); when it turns false (`ponderhit`) the limits above apply, counted
    // from that moment, when the GUI starts our clock.
    const std::atomic<bool>* pondering = nullptr;
    int level = 10;          // strength 1..10, 10 = full strength
    std::uint64_t seed = 0;  // randomness for lower levels; same seed, same move
    std::vector<Move> searchmoves;  // when not empty, only these root moves (UCI searchmoves)
    std::vector<Move> banmoves;     // root moves never to play (UCCI banmoves)
};

// A game decided by a repetition ruling (perpetual check or chase) inside the search scores
// RULE_WIN_CP less the distance in plies: decisive, but a centipawn score, never "mate in N"
// (nobody is mated; the referee ends the game at the next repetition).
inline constexpr int RULE_WIN_CP = 20000;

inline constexpr int MIN_LEVEL = 1;
inline constexpr int MAX_LEVEL = 10;

// Reported during the search (the clients' thinking bar and UCI info lines).
struct Progress {
    int depth = 0;
    int seldepth = 0;
    int score_cp = 0;          // from the side to move's view
    int mate_in = 0;           // moves to mate (>0 we mate, <0 we are mated), 0 if none
    std::uint64_t nodes = 0;
    std::uint64_t nps = 0;
    int elapsed_ms = 0;
    int root_done = 0;         // root moves searched at this depth
    int root_total = 0;
    std::vector<Move> pv;
    bool iteration_done = false;  // true once per finished depth (the UCI front end prints these)
    int hashfull = 0;             // permille of the transposition table used by this search
};

struct Result {
    Move best;                 // Move::none() when the side to move has no legal move
    Move ponder;
    int score_cp = 0;
    int mate_in = 0;
    int depth = 0;
    std::uint64_t nodes = 0;
    std::vector<Move> pv;
};

using ProgressFn = std::function<void(const Progress&)>;

// Lazy SMP's choice among the threads' results (results[0] is the main thread's): the index of
// the thread whose move wins a vote weighted by completed depth and score.
std::size_t pick_thread(const std::vector<Result>& results);

class Engine {
public:
    explicit Engine(std::size_t hash_mb = 16);
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    void set_hash_mb(std::size_t mb);
    std::size_t hash_mb() const;
    void new_game();  // clears the transposition table and history

    // Search threads (Lazy SMP): helpers search the same position and share the table; the
    // main thread's result is the move. 1 = single-threaded (the default, and always at
    // levels below 10). Not while a search runs.
    static constexpr int MAX_THREADS = 64;
    void set_threads(int n);  // clamped to 1..MAX_THREADS
    int threads() const;

    // Searches the position reached from `start` by `moves` (the game so far, so that
    // repetitions are judged as the referee judges them). `stop` may be null. Illegal moves in
    // `moves` end the replay there. Deterministic for equal inputs on a fresh engine (or after
    // new_game()) with one thread; one Engine runs one search at a time, separate Engines run in
    // parallel.
    Result search(const Position& start, const std::vector<Move>& moves, const Limits& limits,
                  const ProgressFn& on_progress = {}, const std::atomic<bool>* stop = nullptr);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace xq::engine
