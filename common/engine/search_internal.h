// The search's internals, shared by its two files: search.cpp (the tree: principal-variation
// search, quiescence, move ordering, the repetition rulings) and search_root.cpp (the root:
// iterative deepening with aspiration windows, levels, time, reports, and the Engine class).
#pragma once

#include <atomic>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "eval.h"
#include "large_array.h"
#include "search.h"
#include "tt.h"

namespace xq::engine {

using Clock = std::chrono::steady_clock;

constexpr int MAX_PLY = 120;
constexpr int MAX_DEPTH = 64;
constexpr int INF = 32001;
constexpr int MATE = 32000;
constexpr int MATE_BOUND = MATE - 2 * MAX_PLY;  // |score| >= this: a forced mate (or rule win)
static_assert(RULE_WIN_CP < MATE_BOUND - 2 * MAX_PLY, "rule wins stay below mate scores");
constexpr int NO_SCORE = 32002;
constexpr int MOVE_LIMIT_PLIES = 120;  // docs/RULES.md: 60 moves without capture

constexpr int mate_in(int ply) { return MATE - ply; }
constexpr int mated_in(int ply) { return -MATE + ply; }


inline int score_to_tt(int v, int ply) {
    if (v >= MATE_BOUND) return v + ply;
    if (v <= -MATE_BOUND) return v - ply;
    return v;
}
inline int score_from_tt(int v, int ply) {
    if (v >= MATE_BOUND) return v - ply;
    if (v <= -MATE_BOUND) return v + ply;
    return v;
}

struct RootMove {
    Move move;
    int score = -INF;
    int prev_score = -INF;
    std::vector<Move> pv;
};

struct Frame {
    Move killers[2];
    Move move;
    int eval = 0;
    int pv_len = 0;
    Move pv[MAX_PLY + 1];
};

// Move ordering classes (added to MVV/LVA or history scores).
constexpr int SCORE_TT = 1 << 30;
constexpr int SCORE_GOOD_CAPTURE = 1 << 28;
constexpr int SCORE_KILLER = 1 << 27;
constexpr int SCORE_BAD_CAPTURE = -(1 << 28);
constexpr int HISTORY_MAX = 1 << 14;
// A move list's scores array has this many entries past MAX_MOVES: score_moves sets the seven
// after the last move to INT_MIN, so that pick_next reads the scores in whole groups of eight.
constexpr int SCORE_PAD = 7;
constexpr Move NULL_MARK = Move::from_raw(0xFFFF);  // marks a null move in the frame stack

// What each search thread keeps to itself across searches: the history heuristic and a
// cache of static evaluations.
struct ThreadData {
    int history[PIECE_NB][SQ_NB] = {};
    // Static evaluations by key: most quiescence nodes are evaluated more than once.
    // One 64-bit word per entry: the key's upper 48 bits and the value's 16 (a value that does
    // not fit is not cached). The key's lower bits are the entry's index, so the whole key is
    // checked: a pure cache, whose size never changes a search. 2^18 entries in 2 MiB.
    using EvalEntry = std::uint64_t;
    static constexpr std::size_t EVAL_CACHE_SIZE = std::size_t(1) << 18;
    static_assert(EVAL_CACHE_SIZE >= (1 << 16));
    LargeArray<EvalEntry> eval_cache{EVAL_CACHE_SIZE};

    // Starts loading the cache line of `key` (the child's evaluation follows soon after a move).
    void prefetch_eval(std::uint64_t key) const { __builtin_prefetch(&eval_cache[key & (EVAL_CACHE_SIZE - 1)]); }
    // psq: psq_of(pos), kept by the search.
    int cached_eval(const Position& pos, PackedScore psq) {
        EvalEntry& e = eval_cache[pos.key() & (EVAL_CACHE_SIZE - 1)];
        if ((e ^ pos.key()) >> 16 == 0) return std::int16_t(e & 0xFFFF);
        const int v = evaluate(pos, psq);
        if (v == std::int16_t(v)) e = (pos.key() & ~std::uint64_t(0xFFFF)) | std::uint16_t(v);
        return v;
    }
    void clear() {
        eval_cache.clear();
        for (auto& row : history)
            for (int& h : row) h = 0;
    }
    void decay() {
        // History decays between searches so that old games weigh less than the current one.
        for (auto& row : history)
            for (int& h : row) h /= 2;
    }
};

// Everything of one Engine that lives across searches: the shared transposition table, the
// main thread's data and the helper threads' (Lazy SMP, Engine::set_threads).
struct EngineState {
    TranspositionTable tt;
    int reductions[MAX_DEPTH + 1][MAX_MOVES] = {};
    ThreadData main;
    std::vector<std::unique_ptr<ThreadData>> helpers;
    std::atomic<std::uint64_t> helper_nodes{0};  // nodes of the helper threads in this search

    explicit EngineState(std::size_t mb) : tt(mb) {
        for (int d = 1; d <= MAX_DEPTH; ++d)
            for (int m = 1; m < MAX_MOVES; ++m)
                reductions[d][m] = int(0.5 + std::log(double(d)) * std::log(double(m)) / 2.5);
    }
    void clear() {
        tt.clear();
        main.clear();
        for (auto& h : helpers) h->clear();
    }
};

// Where the nodes of a search go (docs/engine.md "Where the nodes go"): counted only in a build
// with -DXQ_SEARCH_STATS (tools/engine/search_stats.sh), printed to stderr after each search.
struct SearchStats {
    std::uint64_t qnodes = 0, qnodes_check = 0, main_nodes = 0;
    std::uint64_t by_depth[16] = {};              // main nodes by remaining depth (15 = 15+)
    std::uint64_t tt_cuts = 0, rfp_cuts = 0, null_tries = 0, null_cuts = 0;
    std::uint64_t cut_nodes = 0, first_move_cuts = 0, cut_move_sum = 0;  // fail-high nodes
    std::uint64_t all_nodes = 0;                  // nodes that searched moves and failed low
    std::uint64_t moves = 0, checks_extended = 0, reduced = 0, re_searched = 0;
    std::uint64_t q_moves = 0, q_cuts = 0, q_first_cuts = 0;
};
#ifdef XQ_SEARCH_STATS
#define XQ_STAT(...) (__VA_ARGS__)
#else
#define XQ_STAT(...) ((void)0)
#endif

class Searcher {
public:
    // Thread 0 is the main thread (reports progress, its result is the move); helpers
    // (thread_id >= 1) fill the shared table and publish their node counts.
    Searcher(EngineState& impl, ThreadData& td, const Limits& limits, const ProgressFn& on_progress,
             const std::atomic<bool>* stop, int thread_id = 0)
        : impl_(impl), td_(td), tt_(impl.tt), limits_(limits), on_progress_(on_progress), stop_(stop),
          thread_id_(thread_id) {}

    Result run(const Position& start, const std::vector<Move>& moves);

private:
    // --- position with history ---
    // `gives_check` is pos_.gives_check_fast(m), known before the move is made.
    void make(Move m, UndoInfo& u, bool gives_check) {
        const bool capture = pos_.is_capture(m);
        const PackedScore psq = psq_[top_] + psq_delta(pos_, m);
        pos_.do_move(m, u);
        tt_.prefetch(pos_.key());
        td_.prefetch_eval(pos_.key());
        push(m, psq, gives_check, capture);
    }
    void unmake(Move m, const UndoInfo& u) {
        pos_.undo_move(m, u);
        --top_;
    }
    void make_null(UndoInfo& u) {
        pos_.do_null_move(u);
        push(Move::none(), psq_[top_], false, true);
    }
    void unmake_null(const UndoInfo& u) {
        pos_.undo_null_move(u);
        --top_;
    }
    // The entries of the position just reached by `m` (sized by run(): no capacity test).
    void push(Move m, PackedScore psq, bool gives_check, bool irreversible) {
        assert(top_ + 1 < int(keys_.size()));
        path_[top_] = m;
        const int n = ++top_;
        keys_[n] = pos_.key();
        psq_[n] = psq;
        checks_[n] = gives_check;
        irreversible_[n] = irreversible ? n : irreversible_[n - 1];
    }
    bool in_check() const { return checks_[top_]; }

    // docs/RULES.md repetition rulings (through the referee's own rulings.h), applied as soon as a
    // position repeats inside the tree: perpetual check loses to chase loses to idle; equal
    // classes draw.
    int repetition_score(int ply) const;
    int draw_score() const { return 0; }

    // --- search ---
    int search(int alpha, int beta, int depth, int ply, bool cut_node);
    int qsearch(int alpha, int beta, int ply);
    int root_search(int depth, int alpha, int beta);
    void score_moves(const MoveList& list, int* scores, Move tt_move, int ply) const {
        pos_.side_to_move() == RED ? score_moves<BLACK>(list, scores, tt_move, ply)
                                   : score_moves<RED>(list, scores, tt_move, ply);
    }
    template <Color them>  // the opponent of the side to move (compiled per colour)
    void score_moves(const MoveList& list, int* scores, Move tt_move, int ply) const;
    Move pick_ahead(MoveList& list, int* scores, int i);
    void drop_late_quiets(MoveList& list, int* scores, int i) const;
    void update_quiet_stats(Move best, const Move* quiets, int quiet_count, int depth, int ply);
    bool should_abort();
    int elapsed_ms() const {
        return int(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_time_).count());
    }
    // The time the clock limits count: since the start, or since the ponderhit of a ponder search.
    int clock_ms() const {
        return int(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - clock_start_).count());
    }
    // True while a ponder search is still pondering; at the first call after the ponderhit the
    // clock limits start counting.
    bool pondering();
    void report(int depth, int score, bool iteration_done, int root_done);
    // A decisive score as reported: "mate in N" when the line ends in a mate, a centipawn
    // rule result (RULE_WIN_CP less the plies) when it ends in a repetition the rulings decide.
    void score_for_report(int score, const std::vector<Move>& pv, int& cp, int& mate) const;
    bool ends_in_repetition(const std::vector<Move>& pv) const;
    void setup_time();
    Move choose_with_randomness(int margin);

    std::uint64_t total_nodes() const {
        return nodes_ + (thread_id_ == 0 ? impl_.helper_nodes.load(std::memory_order_relaxed) : 0);
    }

    EngineState& impl_;
    ThreadData& td_;
    TranspositionTable& tt_;
    const Limits& limits_;
    const ProgressFn& on_progress_;
    const std::atomic<bool>* stop_;
    int thread_id_ = 0;
    std::uint64_t published_nodes_ = 0;

    Position pos_;
    // The positions from the root of the game to the current node, top_ the current one: one
    // index for the five stacks (sized once by run(), so that a move is five stores and an
    // increment, its undo a decrement).
    int top_ = 0;
    std::vector<std::uint64_t> keys_;      // keys_[i]: the key of position i
    std::vector<PackedScore> psq_;         // psq_of() of position i (eval.h)
    std::vector<Move> path_;               // path_[i]: the move played from position i
    std::vector<std::uint8_t> checks_;     // checks_[i]: position i is in check
    std::vector<int> irreversible_;        // index of the latest position repetition cannot pass
    std::vector<Frame> frames_ = std::vector<Frame>(MAX_PLY + 4);
    std::vector<RootMove> root_moves_;

    Clock::time_point start_time_;
    Clock::time_point clock_start_;
    bool pondering_ = false;
    int soft_ms_ = 0;
    int hard_ms_ = 0;
    std::uint64_t max_nodes_ = 0;
    std::uint64_t level_nodes_ = 0;
    int max_depth_ = MAX_DEPTH;
    int margin_ = 0;
    std::uint64_t nodes_ = 0;
    int seldepth_ = 0;
    int root_depth_ = 0;
    bool stopped_ = false;
    int completed_depth_ = 0;
#ifdef XQ_SEARCH_STATS
    SearchStats stats_;
    void print_stats() const;
#endif
};

}  // namespace xq::engine
