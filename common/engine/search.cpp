#include "search.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "eval.h"
#include "large_array.h"
#include "time_budget.h"
#include "tt.h"
#include "xiangqi/rulings.h"

// Iterative deepening principal-variation search with aspiration windows, a transposition
// table, quiescence search, null-move pruning, late-move reductions, check extension, and
// the repetition rulings of docs/RULES.md applied inside the tree.
namespace xq::engine {

namespace {

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


int score_to_tt(int v, int ply) {
    if (v >= MATE_BOUND) return v + ply;
    if (v <= -MATE_BOUND) return v - ply;
    return v;
}
int score_from_tt(int v, int ply) {
    if (v >= MATE_BOUND) return v - ply;
    if (v <= -MATE_BOUND) return v + ply;
    return v;
}

// What a strength level means: a depth cap, a node cap, how far below the best score a
// randomly chosen move may be (centipawns), and the share of the given time it may use (so
// that a level stays below the next one even when the clock, not the caps, limits both).
struct LevelSpec {
    int depth;
    std::uint64_t nodes;
    int margin;
    int time_pct;
};
constexpr LevelSpec LEVELS[MAX_LEVEL + 1] = {
    {1, 400, 200, 100},       // 0: unused (levels clamp to 1..10)
    {1, 400, 200, 100},       // 1
    {1, 1500, 120, 100},      // 2
    {2, 4000, 80, 100},       // 3
    {3, 12000, 55, 100},      // 4
    {4, 40000, 35, 100},      // 5
    {5, 120000, 22, 100},     // 6
    {6, 400000, 12, 100},     // 7
    {8, 1500000, 6, 100},     // 8
    {10, 4000000, 0, 60},     // 9
    {0, 0, 0, 100},           // 10: full strength
};

constexpr std::uint64_t splitmix(std::uint64_t& s) {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
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
constexpr Move NULL_MARK = Move::from_raw(0xFFFF);  // marks a null move in the frame stack

}  // namespace

// What each search thread keeps to itself across searches: the history heuristic and a
// cache of static evaluations.
struct ThreadData {
    int history[PIECE_NB][SQ_NB] = {};
    // Static evaluations by key: most quiescence nodes are evaluated more than once.
    struct EvalEntry {
        std::uint64_t key = 0;
        int value = 0;
    };
    // 2 MiB: one huge page. A pure cache (full keys), so its size never changes a search.
    static constexpr std::size_t EVAL_CACHE_SIZE = 1 << 17;
    LargeArray<EvalEntry> eval_cache{EVAL_CACHE_SIZE};

    int cached_eval(const Position& pos) {
        EvalEntry& e = eval_cache[pos.key() & (EVAL_CACHE_SIZE - 1)];
        if (e.key != pos.key()) {
            e.key = pos.key();
            e.value = evaluate(pos);
        }
        return e.value;
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

struct Engine::Impl : EngineState {
    using EngineState::EngineState;
};

namespace {

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
    void make(Move m, UndoInfo& u) {
        const bool capture = pos_.is_capture(m);
        const bool may_check = pos_.may_give_check(m);
        pos_.do_move(m, u);
        tt_.prefetch(pos_.key());
        path_.push_back(m);
        keys_.push_back(pos_.key());
        checks_.push_back(may_check && pos_.in_check());
        irreversible_.push_back(capture ? int(keys_.size()) - 1 : irreversible_.back());
    }
    void unmake(Move m, const UndoInfo& u) {
        pos_.undo_move(m, u);
        path_.pop_back();
        keys_.pop_back();
        checks_.pop_back();
        irreversible_.pop_back();
    }
    void make_null(UndoInfo& u) {
        pos_.do_null_move(u);
        path_.push_back(Move::none());
        keys_.push_back(pos_.key());
        checks_.push_back(false);
        irreversible_.push_back(int(keys_.size()) - 1);
    }
    void unmake_null(const UndoInfo& u) {
        pos_.undo_null_move(u);
        path_.pop_back();
        keys_.pop_back();
        checks_.pop_back();
        irreversible_.pop_back();
    }
    bool in_check() const { return checks_.back(); }

    // docs/RULES.md repetition rulings (through the referee's own rulings.h), applied as soon as a
    // position repeats inside the tree: perpetual check loses to chase loses to idle; equal
    // classes draw.
    int repetition_score(int ply) const;
    int draw_score() const { return 0; }

    // --- search ---
    int search(int alpha, int beta, int depth, int ply, bool cut_node);
    int qsearch(int alpha, int beta, int ply);
    int root_search(int depth, int alpha, int beta);
    void score_moves(const MoveList& list, int* scores, Move tt_move, int ply) const;
    void update_quiet_stats(Move best, const Move* quiets, int quiet_count, int depth, int ply);
    bool should_abort();
    int elapsed_ms() const {
        return int(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start_time_).count());
    }
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
    std::vector<std::uint64_t> keys_;
    std::vector<Move> path_;               // path_[i]: the move played from position i
    std::vector<std::uint8_t> checks_;     // checks_[i]: the position after move i-1 is in check
    std::vector<int> irreversible_;        // index of the latest position repetition cannot pass
    std::vector<Frame> frames_ = std::vector<Frame>(MAX_PLY + 4);
    std::vector<RootMove> root_moves_;

    Clock::time_point start_time_;
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
};

int Searcher::repetition_score(int ply) const {
    const int n = int(keys_.size()) - 1;
    const int floor = irreversible_.back();
    for (int i = n - 4; i >= floor; i -= 2) {
        if (keys_[i] != keys_[n]) continue;
        // Moves i..n-1 bring the current position back to itself. One side checking every
        // time loses at once; both checking every time is a draw; otherwise the referee's
        // full ruling (chases) decides.
        bool all_check[COLOR_NB] = {true, true};
        const Color us = pos_.side_to_move();
        for (int j = i; j < n; ++j) {
            const Color mover = (n - 1 - j) % 2 == 0 ? ~us : us;
            all_check[mover] = all_check[mover] && checks_[j + 1];
        }
        RepetitionVerdict v;
        if (all_check[RED] != all_check[BLACK]) {
            v.decisive = true;
            v.loser = all_check[RED] ? RED : BLACK;
        } else if (!all_check[RED]) {
            v = rule_cycle(pos_, path_.data() + i, n - i).verdict;
        }
        if (!v.decisive) return draw_score();
        // Ranked like mates (a loss is a loss; the longer way is better), reported as rule
        // results (see Searcher::score_for_report).
        return v.loser == us ? mated_in(ply) : mate_in(ply);
    }
    return NO_SCORE;
}

bool Searcher::should_abort() {
    if (stopped_) return true;
    if (max_nodes_ && nodes_ >= max_nodes_) return stopped_ = true;
    // A level's node cap never cuts depth 1 short: a weak move must still be a considered one.
    if (level_nodes_ && completed_depth_ > 0 && nodes_ >= level_nodes_) return stopped_ = true;
    if ((nodes_ & 255) == 0) {
        if (thread_id_ > 0) {
            impl_.helper_nodes.fetch_add(nodes_ - published_nodes_, std::memory_order_relaxed);
            published_nodes_ = nodes_;
        }
        if (stop_ && stop_->load(std::memory_order_relaxed)) return stopped_ = true;
        if (hard_ms_ && elapsed_ms() >= hard_ms_) return stopped_ = true;
    }
    return false;
}

void Searcher::score_moves(const MoveList& list, int* scores, Move tt_move, int ply) const {
    const Frame& f = frames_[ply];
    const Color them = ~pos_.side_to_move();
    for (int i = 0; i < list.size(); ++i) {
        const Move m = list[i];
        if (m == tt_move) {
            scores[i] = SCORE_TT;
            continue;
        }
        const Piece moved = pos_.moved_piece(m);
        const Piece victim = pos_.piece_on(m.to());
        if (victim != NO_PIECE) {
            const int vv = PIECE_VALUE[type_of(victim)], av = PIECE_VALUE[type_of(moved)];
            const int mvv_lva = vv * 8 - av / 16;
            const bool bad = av > vv + 50 && pos_.is_attacked(m.to(), them);
            scores[i] = (bad ? SCORE_BAD_CAPTURE : SCORE_GOOD_CAPTURE) + mvv_lva;
        } else if (m == f.killers[0]) {
            scores[i] = SCORE_KILLER + 1;
        } else if (m == f.killers[1]) {
            scores[i] = SCORE_KILLER;
        } else {
            scores[i] = td_.history[moved][m.to()];
        }
    }
}

// Lazy selection: most nodes cut off after one to three moves, so picking the best remaining
// move each time beats sorting the whole list. The pick is the first of the highest scores: the
// highest score first (a branch-free loop the compiler vectorises), then where it first occurs.
inline Move pick_next(MoveList& list, int* scores, int i) {
    int top = scores[i];
    for (int j = i + 1; j < list.size(); ++j) top = std::max(top, scores[j]);
    int best = i;
    while (scores[best] != top) ++best;
    if (best != i) {
        std::swap(list.moves[i], list.moves[best]);
        std::swap(scores[i], scores[best]);
    }
    return list.moves[i];
}

void Searcher::update_quiet_stats(Move best, const Move* quiets, int quiet_count, int depth, int ply) {
    Frame& f = frames_[ply];
    if (f.killers[0] != best) {
        f.killers[1] = f.killers[0];
        f.killers[0] = best;
    }
    const int bonus = std::min(depth * depth + depth, 1200);
    auto adjust = [&](Move m, int b) {
        int& h = td_.history[pos_.moved_piece(m)][m.to()];
        h += b - h * std::abs(b) / HISTORY_MAX;
    };
    adjust(best, bonus);
    for (int i = 0; i < quiet_count; ++i)
        if (quiets[i] != best) adjust(quiets[i], -bonus);
}

int Searcher::qsearch(int alpha, int beta, int ply) {
    ++nodes_;
    if (should_abort()) return 0;
    seldepth_ = std::max(seldepth_, ply);
    frames_[ply].pv_len = 0;
    if (ply > 0) {
        const int rep = repetition_score(ply);
        if (rep != NO_SCORE) return rep;
    }
    if (ply >= MAX_PLY) return evaluate(pos_);
    const bool check = in_check();

    TTEntry tt_copy;
    const TTEntry* tte = tt_.probe(pos_.key(), tt_copy);
    Move tt_move;
    if (tte) {
        const int v = score_from_tt(tte->score, ply);
        const Bound b = tte->bound();
        if ((b == Bound::Exact) || (b == Bound::Lower && v >= beta) || (b == Bound::Upper && v <= alpha))
            return v;
        tt_move = Move::from_raw(tte->move);
    }

    int best = -INF;
    int stand = 0;
    if (!check) {
        stand = tte ? tte->eval : td_.cached_eval(pos_);
        if (stand >= beta) return stand;
        if (stand > alpha) alpha = stand;
        best = stand;
    }

    MoveList list;
    if (check) pos_.generate_pseudo(list);
    else pos_.generate_captures(list);
    int scores[MAX_MOVES];
    score_moves(list, scores, tt_move, ply);

    int legal = 0;
    Move best_move;
    UndoInfo u;
    const Color them = ~pos_.side_to_move();
    for (int i = 0; i < list.size(); ++i) {
        const Move m = pick_next(list, scores, i);
        // Not in check, the legal moves are not counted: the prunings come first, and the
        // legality test only for the captures that are searched.
        if (!check) {
            const Piece victim = pos_.piece_on(m.to());
            const int vv = PIECE_VALUE[type_of(victim)];
            // Delta pruning: even winning this piece for free cannot reach alpha.
            if (stand + vv + 200 <= alpha) continue;
            // Losing captures (a dearer piece takes a defended cheaper one) are skipped.
            if (scores[i] < 0 && PIECE_VALUE[type_of(pos_.moved_piece(m))] > vv + 50 &&
                pos_.is_attacked(m.to(), them))
                continue;
        }
        if (!pos_.is_legal(m, check)) continue;
        ++legal;
        make(m, u);
        const int v = -qsearch(-beta, -alpha, ply + 1);
        unmake(m, u);
        if (stopped_) return 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                alpha = v;
                Frame& f = frames_[ply];
                const Frame& c = frames_[ply + 1];
                f.pv[0] = m;
                std::copy(c.pv, c.pv + c.pv_len, f.pv + 1);
                f.pv_len = c.pv_len + 1;
                if (v >= beta) break;
            }
        }
    }
    if (check && legal == 0) return mated_in(ply);
    return best;
}

int Searcher::search(int alpha, int beta, int depth, int ply, bool cut_node) {
    if (depth <= 0) return qsearch(alpha, beta, ply);
    ++nodes_;
    if (should_abort()) return 0;
    seldepth_ = std::max(seldepth_, ply);
    Frame& f = frames_[ply];
    f.pv_len = 0;
    const bool pv_node = beta - alpha > 1;
    const bool root = ply == 0;

    if (!root) {
        const int rep = repetition_score(ply);
        if (rep != NO_SCORE) return rep;
        if (pos_.rule50() >= MOVE_LIMIT_PLIES) return draw_score();
        if (ply >= MAX_PLY) return evaluate(pos_);
        // Mate distance pruning.
        alpha = std::max(alpha, mated_in(ply));
        beta = std::min(beta, mate_in(ply + 1));
        if (alpha >= beta) return alpha;
    }

    const bool check = in_check();
    TTEntry tt_copy;
    const TTEntry* tte = tt_.probe(pos_.key(), tt_copy);
    Move tt_move;
    int tt_score = NO_SCORE;
    if (tte) {
        tt_move = Move::from_raw(tte->move);
        tt_score = score_from_tt(tte->score, ply);
        const Bound b = tte->bound();
        if (!pv_node && tte->depth >= depth &&
            ((b == Bound::Exact) || (b == Bound::Lower && tt_score >= beta) ||
             (b == Bound::Upper && tt_score <= alpha)))
            return tt_score;
    }

    int eval = 0, raw_eval = 0;
    if (!check) {
        raw_eval = eval = tte ? tte->eval : td_.cached_eval(pos_);
        // The table's bound on the real score is a better estimate than the static eval.
        if (tt_score != NO_SCORE && std::abs(tt_score) < MATE_BOUND &&
            ((tte->bound() == Bound::Lower && tt_score > eval) ||
             (tte->bound() == Bound::Upper && tt_score < eval)))
            eval = tt_score;
    }
    f.eval = eval;
    const bool improving = ply >= 2 && !check && eval > frames_[ply - 2].eval;

    if (!pv_node && !check && std::abs(beta) < MATE_BOUND) {
        // Reverse futility: far above beta with little depth left.
        if (depth <= 7 && eval - (85 - 20 * improving) * depth >= beta) return eval;

        // Null move, guarded against zugzwang-prone endings (few attacking pieces left).
        const Color us = pos_.side_to_move();
        const int force = 2 * pos_.count(us, ROOK) + pos_.count(us, HORSE) + pos_.count(us, CANNON);
        if (depth >= 3 && eval >= beta && force >= 3 && ply > 0 && frames_[ply - 1].move != NULL_MARK) {
            const int r = 3 + depth / 4 + std::min((eval - beta) / 200, 2);
            UndoInfo u;
            make_null(u);
            frames_[ply].move = NULL_MARK;
            frames_[ply + 2].killers[0] = frames_[ply + 2].killers[1] = Move::none();
            const int v = -search(-beta, -beta + 1, depth - r, ply + 1, !cut_node);
            unmake_null(u);
            if (stopped_) return 0;
            if (v >= beta) return v >= MATE_BOUND ? beta : v;
        }
    }

    // Internal iterative reduction: without a table move, searching shallower is cheaper.
    if (!tt_move && depth >= 6 && (pv_node || cut_node)) --depth;

    MoveList list;
    pos_.generate_pseudo(list);
    int scores[MAX_MOVES];
    score_moves(list, scores, tt_move, ply);
    frames_[ply + 2].killers[0] = frames_[ply + 2].killers[1] = Move::none();

    Move quiets[MAX_MOVES];
    int quiet_count = 0;
    int best = -INF;
    Move best_move;
    int legal = 0;
    const int old_alpha = alpha;
    UndoInfo u;
    for (int i = 0; i < list.size(); ++i) {
        const Move m = pick_next(list, scores, i);
        const bool capture = pos_.is_capture(m);
        const bool quiet = !capture;
        // The pruning below, decided before the move is made, and even before its legality
        // test, when it certainly gives no check (most pruned moves): the same decisions
        // without a legality test, make, check test and unmake. The legal-move count then
        // misses the pruned moves, which changes nothing: once either pruning fires it fires
        // for every later quiet move that gives no check (the count and alpha only grow),
        // and the count steers nothing else by then (it is past 1, and only such moves are
        // reduced by it).
        if (!root && quiet && !check && best > -MATE_BOUND && !pos_.may_give_check(m)) {
            if (depth <= 5 && legal + 1 > 3 + depth * depth / (improving ? 1 : 2)) continue;
            if (depth <= 6 && eval + 110 + 95 * depth <= alpha) continue;
        }
        if (!pos_.is_legal(m, check)) continue;
        ++legal;
        make(m, u);
        const bool gives_check = in_check();
        // Pruning of late quiet moves near the leaves (never when mated scores are in play).
        if (!root && quiet && !check && !gives_check && best > -MATE_BOUND) {
            if (depth <= 5 && legal > 3 + depth * depth / (improving ? 1 : 2)) {
                unmake(m, u);
                continue;
            }
            if (depth <= 6 && eval + 110 + 95 * depth <= alpha) {
                unmake(m, u);
                continue;
            }
        }
        frames_[ply].move = m;
        frames_[ply + 1].move = Move::none();
        const int ext = gives_check && ply < 2 * root_depth_ + 4 ? 1 : 0;
        const int new_depth = depth - 1 + ext;
        int v;
        if (legal == 1) {
            v = -search(-beta, -alpha, new_depth, ply + 1, pv_node ? false : !cut_node);
        } else {
            int r = 0;
            if (depth >= 3 && quiet && !gives_check && !check) {
                r = impl_.reductions[std::min(depth, MAX_DEPTH)][std::min(legal, MAX_MOVES - 1)];
                if (pv_node) --r;
                if (cut_node) ++r;
                if (scores[i] >= SCORE_KILLER) --r;
                else r -= scores[i] / 5000;
                if (!improving) ++r;
                r = std::clamp(r, 0, new_depth - 1);
            }
            v = -search(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
            if (r > 0 && v > alpha) v = -search(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            if (pv_node && v > alpha && v < beta) v = -search(-beta, -alpha, new_depth, ply + 1, false);
        }
        unmake(m, u);
        if (stopped_) return 0;
        if (v > best) {
            best = v;
            if (v > alpha) {
                best_move = m;
                alpha = v;
                if (pv_node) {
                    const Frame& c = frames_[ply + 1];
                    f.pv[0] = m;
                    std::copy(c.pv, c.pv + c.pv_len, f.pv + 1);
                    f.pv_len = c.pv_len + 1;
                }
                if (v >= beta) {
                    if (quiet) update_quiet_stats(m, quiets, quiet_count, depth, ply);
                    break;
                }
            }
        }
        if (quiet && quiet_count < MAX_MOVES) quiets[quiet_count++] = m;
    }
    // No legal move: checkmate or stalemate, both lost in Xiangqi.
    if (legal == 0) return mated_in(ply);
    if (best == -INF) best = alpha;  // every move pruned: fail low

    const Bound bound = best >= beta ? Bound::Lower : (best_move && best > old_alpha ? Bound::Exact : Bound::Upper);
    tt_.store(pos_.key(), best_move, score_to_tt(best, ply), raw_eval, depth, bound);
    return best;
}

int Searcher::root_search(int depth, int alpha, int beta) {
    Frame& f = frames_[0];
    f.pv_len = 0;
    frames_[2].killers[0] = frames_[2].killers[1] = Move::none();
    frames_[0].move = Move::none();
    int best = -INF;
    UndoInfo u;
    const int total = int(root_moves_.size());
    for (int i = 0; i < total; ++i) {
        RootMove& rm = root_moves_[i];
        const Move m = rm.move;
        make(m, u);
        const bool gives_check = in_check();
        const int new_depth = depth - 1 + (gives_check ? 1 : 0);
        frames_[0].move = m;
        frames_[1].move = Move::none();
        int v;
        // With a margin (lower levels) every move near the best gets an exact score.
        const int a = margin_ ? std::max(best - margin_ - 1, -INF) : alpha;
        if (i == 0 || margin_) {
            v = -search(-beta, -a, new_depth, 1, false);
        } else {
            v = -search(-alpha - 1, -alpha, new_depth, 1, true);
            if (v > alpha && v < beta) v = -search(-beta, -alpha, new_depth, 1, false);
        }
        unmake(m, u);
        if (stopped_) break;
        rm.score = v > a || i == 0 ? v : -INF;
        if (v > best) {
            best = v;
            const Frame& c = frames_[1];
            rm.pv.assign(1, m);
            rm.pv.insert(rm.pv.end(), c.pv, c.pv + c.pv_len);
            if (v > alpha) {
                alpha = v;
                // Move the new best to the front, keeping the others' order.
                std::rotate(root_moves_.begin(), root_moves_.begin() + i, root_moves_.begin() + i + 1);
                if (v >= beta) break;
            }
        }
        if (on_progress_ && depth >= 2)
            report(depth, root_moves_[0].score != -INF ? root_moves_[0].score : root_moves_[0].prev_score,
                   false, i + 1);
    }
    return best;
}

void Searcher::report(int depth, int score, bool iteration_done, int root_done) {
    Progress p;
    p.depth = depth;
    p.seldepth = seldepth_;
    if (!root_moves_.empty()) score_for_report(score, root_moves_[0].pv, p.score_cp, p.mate_in);
    else p.score_cp = score;
    p.nodes = total_nodes();
    p.elapsed_ms = elapsed_ms();
    p.nps = p.elapsed_ms > 0 ? p.nodes * 1000 / std::uint64_t(p.elapsed_ms) : p.nodes * 1000;
    p.root_done = root_done;
    p.root_total = int(root_moves_.size());
    if (!root_moves_.empty()) p.pv = root_moves_[0].pv;
    p.iteration_done = iteration_done;
    if (iteration_done) p.hashfull = tt_.hashfull();
    on_progress_(p);
}

bool Searcher::ends_in_repetition(const std::vector<Move>& pv) const {
    // Called at the root: keys_ holds the game so far. The line's last position repeats one
    // since the last capture, with the same side to move.
    std::vector<std::uint64_t> keys(keys_.begin() + irreversible_.back(), keys_.end());
    Position p = pos_;
    for (Move m : pv) {
        MoveList legal;
        p.generate_legal(legal);
        if (!legal.contains(m)) return false;
        const bool capture = p.is_capture(m);
        UndoInfo u;
        p.do_move(m, u);
        if (capture) keys.clear();
        keys.push_back(p.key());
    }
    const int n = int(keys.size()) - 1;
    for (int i = n - 2; i >= 0; i -= 2)
        if (keys[i] == keys[n]) return true;
    return false;
}

void Searcher::score_for_report(int score, const std::vector<Move>& pv, int& cp, int& mate) const {
    mate = 0;
    cp = score;
    if (std::abs(score) < MATE_BOUND) return;
    const int plies = MATE - std::abs(score);
    if (ends_in_repetition(pv)) {
        cp = score > 0 ? RULE_WIN_CP - plies : -RULE_WIN_CP + plies;
        return;
    }
    mate = score > 0 ? (plies + 1) / 2 : -(plies + 1) / 2;
    cp = score > 0 ? 30000 : -30000;
}

void Searcher::setup_time() {
    const Color us = pos_.side_to_move();
    // A UCI GUI referees on the same machine: little latency to allow for.
    constexpr int UCI_OVERHEAD_MS = 20;
    constexpr int MOVETIME_OVERHEAD_MS = 5;
    if (limits_.infinite) return;
    if (limits_.hard_ms > 0) {
        hard_ms_ = limits_.hard_ms;
        soft_ms_ = std::clamp(limits_.soft_ms > 0 ? limits_.soft_ms : hard_ms_, 1, hard_ms_);
        return;
    }
    if (limits_.movetime_ms > 0) {
        hard_ms_ = std::max(1, limits_.movetime_ms - MOVETIME_OVERHEAD_MS);
        soft_ms_ = hard_ms_;
        return;
    }
    if (limits_.time_ms[us] > 0) {
        ClockView clock;
        clock.type = ClockType::Fischer;
        clock.main_ms = limits_.time_ms[us];
        clock.increment_ms = limits_.inc_ms[us];
        clock.moves_to_go = limits_.movestogo;
        const TimeBudget b = plan_move_time(clock, UCI_OVERHEAD_MS);
        hard_ms_ = b.hard_ms;
        soft_ms_ = b.soft_ms;
    }
}

Move Searcher::choose_with_randomness(int margin) {
    const int best = root_moves_[0].score;
    if (margin == 0 || std::abs(best) >= MATE_BOUND) return root_moves_[0].move;
    const int floor = best - margin;
    std::uint64_t total = 0;
    for (const RootMove& rm : root_moves_)
        if (rm.score >= floor && rm.score > -INF) total += std::uint64_t(rm.score - floor + 1);
    std::uint64_t state = limits_.seed ^ pos_.key();
    std::uint64_t pick = total ? splitmix(state) % total : 0;
    for (const RootMove& rm : root_moves_) {
        if (rm.score < floor || rm.score == -INF) continue;
        const std::uint64_t w = std::uint64_t(rm.score - floor + 1);
        if (pick < w) return rm.move;
        pick -= w;
    }
    return root_moves_[0].move;
}

Result Searcher::run(const Position& start, const std::vector<Move>& moves) {
    start_time_ = Clock::now();
    pos_ = start;
    keys_.assign(1, pos_.key());
    path_.clear();
    path_.reserve(moves.size() + MAX_PLY + 8);
    checks_.assign(1, pos_.in_check());
    irreversible_.assign(1, 0);
    keys_.reserve(moves.size() + MAX_PLY + 8);
    checks_.reserve(moves.size() + MAX_PLY + 8);
    irreversible_.reserve(moves.size() + MAX_PLY + 8);
    for (Move m : moves) {
        MoveList legal;
        pos_.generate_legal(legal);
        if (!legal.contains(m)) break;
        UndoInfo u;
        make(m, u);
    }
    // Positions before the last capture can never repeat; the base is trimmed accordingly.

    const int level = std::clamp(limits_.level, MIN_LEVEL, MAX_LEVEL);
    const LevelSpec& spec = LEVELS[level];
    max_depth_ = MAX_DEPTH;
    if (limits_.depth > 0) max_depth_ = std::min(limits_.depth, MAX_DEPTH);
    if (spec.depth > 0) max_depth_ = std::min(max_depth_, spec.depth);
    max_nodes_ = limits_.nodes;
    level_nodes_ = spec.nodes;
    margin_ = spec.margin;
    setup_time();
    if (spec.time_pct < 100) {
        hard_ms_ = hard_ms_ ? std::max(1, hard_ms_ * spec.time_pct / 100) : 0;
        soft_ms_ = soft_ms_ ? std::max(1, soft_ms_ * spec.time_pct / 100) : 0;
    }

    MoveList legal;
    pos_.generate_legal(legal);
    for (Move m : legal) {
        if (!limits_.searchmoves.empty() &&
            std::find(limits_.searchmoves.begin(), limits_.searchmoves.end(), m) == limits_.searchmoves.end())
            continue;
        if (std::find(limits_.banmoves.begin(), limits_.banmoves.end(), m) != limits_.banmoves.end()) continue;
        root_moves_.push_back(RootMove{m, -INF, -INF, {m}});
    }
    // If the filters removed everything, fall back to all legal moves: a move must be returned.
    if (root_moves_.empty())
        for (Move m : legal) root_moves_.push_back(RootMove{m, -INF, -INF, {m}});
    // A forced move is answered after a short search; a move restricted by `searchmoves`
    // (the book's sanity check, analysis) is searched in full, for its score.
    const bool forced = legal.size() == 1;

    Result result;
    if (root_moves_.empty()) {
        result.score_cp = -30000;
        return result;
    }
    // Order the root moves once by a cheap static look (captures first, then history).
    {
        MoveList l;
        for (const RootMove& rm : root_moves_) l.push(rm.move);
        int scores[MAX_MOVES];
        Move tt_move;
        TTEntry tt_copy;
        if (const TTEntry* e = tt_.probe(pos_.key(), tt_copy); e) tt_move = Move::from_raw(e->move);
        score_moves(l, scores, tt_move, 0);
        std::vector<std::pair<int, Move>> order;
        for (int i = 0; i < l.size(); ++i) order.emplace_back(scores[i], l[i]);
        std::stable_sort(order.begin(), order.end(), [](auto& a, auto& b) { return a.first > b.first; });
        for (std::size_t i = 0; i < order.size(); ++i) root_moves_[i] = RootMove{order[i].second, -INF, -INF, {order[i].second}};
    }

    int prev_score = 0;
    Move prev_best;
    int stable_iterations = 0;
    // Helpers of odd number run one ply ahead, so that the threads do not all search the same
    // depth at once (Lazy SMP).
    for (int depth = 1 + (thread_id_ % 2); depth <= max_depth_; ++depth) {
        root_depth_ = depth;
        seldepth_ = 0;
        for (RootMove& rm : root_moves_) {
            rm.prev_score = rm.score;
            rm.score = -INF;
        }
        int delta = 25;
        int alpha = -INF, beta = INF;
        if (depth >= 4 && std::abs(prev_score) < MATE_BOUND && !margin_) {
            alpha = std::max(prev_score - delta, -INF);
            beta = std::min(prev_score + delta, INF);
        }
        int score;
        for (;;) {
            score = root_search(depth, alpha, beta);
            if (stopped_) break;
            if (score <= alpha) {
                beta = (alpha + beta) / 2;
                alpha = std::max(score - delta, -INF);
            } else if (score >= beta) {
                beta = std::min(score + delta, INF);
            } else {
                break;
            }
            delta += delta / 2 + 10;
            if (delta > 600) {
                alpha = -INF;
                beta = INF;
            }
        }
        if (stopped_) {
            // A move that finished this depth with a better score than the last full depth is
            // trusted; otherwise the previous depth's order stands.
            // Lower levels choose among complete scores only: the last finished depth's.
            if (completed_depth_ == 0 || root_moves_[0].score == -INF || margin_) {
                std::stable_sort(root_moves_.begin(), root_moves_.end(),
                                 [](const RootMove& a, const RootMove& b) { return a.prev_score > b.prev_score; });
                for (RootMove& rm : root_moves_) rm.score = rm.prev_score;
            }
            break;
        }
        std::stable_sort(root_moves_.begin(), root_moves_.end(),
                         [](const RootMove& a, const RootMove& b) { return a.score > b.score; });
        completed_depth_ = depth;
        prev_score = root_moves_[0].score;
        if (on_progress_) report(depth, prev_score, true, int(root_moves_.size()));

        // Time: stop early when another iteration would most likely not finish.
        stable_iterations = root_moves_[0].move == prev_best ? stable_iterations + 1 : 0;
        prev_best = root_moves_[0].move;
        if (soft_ms_ && soft_ms_ < hard_ms_ && !limits_.infinite) {
            const double factor = stable_iterations >= 3 ? 0.35 : (stable_iterations == 0 ? 0.8 : 0.55);
            if (elapsed_ms() > int(soft_ms_ * factor)) break;
        }
        if (forced && !limits_.infinite && limits_.depth == 0 && depth >= 4) break;
        if (std::abs(prev_score) >= MATE_BOUND && depth >= 2 * (MATE - std::abs(prev_score)) + 4 &&
            !limits_.infinite && limits_.depth == 0)
            break;
    }

    const RootMove& top = root_moves_[0];
    result.best = completed_depth_ > 0 ? choose_with_randomness(margin_) : top.move;
    if (result.best == top.move) result.pv = top.pv;
    else result.pv = {result.best};
    if (result.pv.size() >= 2) result.ponder = result.pv[1];
    int score = top.score == -INF ? top.prev_score : top.score;
    if (score == -INF) score = 0;
    score_for_report(score, top.pv, result.score_cp, result.mate_in);
    result.depth = completed_depth_;
    result.nodes = nodes_;  // this thread's; Engine::search adds the helpers'
    if (thread_id_ > 0) impl_.helper_nodes.fetch_add(nodes_ - published_nodes_, std::memory_order_relaxed);
    return result;
}

}  // namespace

Engine::Engine(std::size_t hash_mb) : impl_(std::make_unique<Impl>(hash_mb)) {}
Engine::~Engine() = default;
void Engine::set_hash_mb(std::size_t mb) { impl_->tt.resize(mb); }
std::size_t Engine::hash_mb() const { return impl_->tt.size_mb(); }
void Engine::new_game() { impl_->clear(); }

void Engine::set_threads(int n) {
    n = std::clamp(n, 1, MAX_THREADS);
    impl_->helpers.resize(std::size_t(n - 1));
    for (auto& h : impl_->helpers)
        if (!h) h = std::make_unique<ThreadData>();
}

int Engine::threads() const { return int(impl_->helpers.size()) + 1; }

Result Engine::search(const Position& start, const std::vector<Move>& moves, const Limits& limits,
                      const ProgressFn& on_progress, const std::atomic<bool>* stop) {
    impl_->main.decay();
    impl_->tt.new_search();
    // Lower levels stay single-threaded: their randomness and caps assume one deterministic search.
    const bool smp = !impl_->helpers.empty() && std::clamp(limits.level, MIN_LEVEL, MAX_LEVEL) == MAX_LEVEL;
    if (!smp) {
        Searcher s(*impl_, impl_->main, limits, on_progress, stop);
        return s.run(start, moves);
    }
    // Lazy SMP: helpers search the same root without limits until the main thread is done,
    // sharing only the transposition table.
    impl_->helper_nodes.store(0);
    Limits helper_limits;
    helper_limits.infinite = true;
    helper_limits.searchmoves = limits.searchmoves;
    helper_limits.banmoves = limits.banmoves;
    const ProgressFn silent;
    std::atomic<bool> helpers_stop{false};
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < impl_->helpers.size(); ++i) {
        ThreadData& td = *impl_->helpers[i];
        td.decay();
        threads.emplace_back([&, i, &td = td] {
            Searcher s(*impl_, td, helper_limits, silent, &helpers_stop, int(i) + 1);
            s.run(start, moves);
        });
    }
    Searcher s(*impl_, impl_->main, limits, on_progress, stop);
    Result r = s.run(start, moves);
    helpers_stop.store(true);
    for (std::thread& t : threads) t.join();
    r.nodes += impl_->helper_nodes.load();
    return r;
}

}  // namespace xq::engine
