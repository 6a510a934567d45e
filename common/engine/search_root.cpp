#include "search_internal.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include "time_budget.h"

// The root of the search (search.cpp has the tree): iterative deepening with aspiration
// windows over the root moves, the strength levels, time, progress reports, and the Engine
// class.
namespace xq::engine {

namespace {

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

}  // namespace

struct Engine::Impl : EngineState {
    using EngineState::EngineState;
};

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
        make(m, u, pos_.gives_check_fast(m));
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
    std::vector<std::uint64_t> keys(keys_.begin() + irreversible_[top_], keys_.begin() + top_ + 1);
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
    clock_start_ = start_time_;
    pondering_ = limits_.pondering != nullptr;
    pos_ = start;
    // Room for the game's positions and a line of MAX_PLY moves beyond them (qsearch stops at
    // MAX_PLY), with a margin.
    const std::size_t room = moves.size() + MAX_PLY + 8;
    keys_.assign(room, 0);
    psq_.assign(room, PackedScore());
    path_.assign(room, Move::none());
    checks_.assign(room, 0);
    irreversible_.assign(room, 0);
    top_ = 0;
    keys_[0] = pos_.key();
    psq_[0] = psq_of(pos_);
    checks_[0] = pos_.in_check();
    for (Move m : moves) {
        MoveList legal;
        pos_.generate_legal(legal);
        if (!legal.contains(m)) break;
        UndoInfo u;
        make(m, u, pos_.gives_check_fast(m));
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
        int scores[MAX_MOVES + SCORE_PAD];
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
        if (soft_ms_ && soft_ms_ < hard_ms_ && !limits_.infinite && !pondering()) {
            const double factor = stable_iterations >= 3 ? 0.35 : (stable_iterations == 0 ? 0.8 : 0.55);
            if (clock_ms() > int(soft_ms_ * factor)) break;
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
#ifdef XQ_SEARCH_STATS
    if (thread_id_ == 0) print_stats();
#endif
    return result;
}

#ifdef XQ_SEARCH_STATS
// A diagnostic build only (the engine does no I/O otherwise): one line of shares per search.
void Searcher::print_stats() const {
    const SearchStats& s = stats_;
    auto pct = [](std::uint64_t a, std::uint64_t b) { return b ? 100.0 * double(a) / double(b) : 0.0; };
    std::fprintf(stderr,
                 "stats nodes %llu depth %d qsearch %.1f%% (in check %.1f%%) tt-cut %.1f%% rfp-cut %.1f%% "
                 "null %.1f%% of nodes, %.1f%% cut; fail-high %.1f%% first-move %.1f%% mean-move %.2f; "
                 "fail-low %.1f%%; check-ext %.1f%% of moves; reduced %.1f%% re-searched %.1f%%; "
                 "q-cut first %.1f%% q-moves/qnode %.2f\nstats by-depth",
                 (unsigned long long)nodes_, completed_depth_, pct(s.qnodes, nodes_), pct(s.qnodes_check, s.qnodes),
                 pct(s.tt_cuts, s.main_nodes), pct(s.rfp_cuts, s.main_nodes), pct(s.null_tries, s.main_nodes),
                 pct(s.null_cuts, s.null_tries), pct(s.cut_nodes, s.main_nodes), pct(s.first_move_cuts, s.cut_nodes),
                 s.cut_nodes ? double(s.cut_move_sum) / double(s.cut_nodes) : 0.0, pct(s.all_nodes, s.main_nodes),
                 pct(s.checks_extended, s.moves), pct(s.reduced, s.moves), pct(s.re_searched, s.reduced),
                 pct(s.q_first_cuts, s.q_cuts), s.qnodes ? double(s.q_moves) / double(s.qnodes) : 0.0);
    for (int d = 1; d < 16; ++d) std::fprintf(stderr, " %d:%.1f", d, pct(s.by_depth[d], s.main_nodes));
    std::fprintf(stderr, "\n");
}
#endif

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
    std::vector<Result> results(impl_->helpers.size() + 1);
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < impl_->helpers.size(); ++i) {
        ThreadData& td = *impl_->helpers[i];
        td.decay();
        threads.emplace_back([&, i, &td = td] {
            Searcher s(*impl_, td, helper_limits, silent, &helpers_stop, int(i) + 1);
            results[i + 1] = s.run(start, moves);
        });
    }
    Searcher s(*impl_, impl_->main, limits, on_progress, stop);
    results[0] = s.run(start, moves);
    helpers_stop.store(true);
    for (std::thread& t : threads) t.join();
    // A search bounded by depth or nodes answers with the main thread's bounded result.
    Result r = std::move(results[limits.depth > 0 || limits.nodes > 0 ? 0 : pick_thread(results)]);
    r.nodes = results[0].nodes + impl_->helper_nodes.load();
    return r;
}

std::size_t pick_thread(const std::vector<Result>& results) {
    // A helper one ply ahead often finishes a deeper iteration than the main thread: the
    // threads vote for their best moves, each vote weighted by its completed depth and by how
    // much better its score is than the worst thread's (as Stockfish chooses its best thread).
    // Ties go to the main thread; a thread without a completed iteration has no vote.
    const auto value = [](const Result& r) -> long long {
        if (r.mate_in > 0) return 30000 - r.mate_in;
        if (r.mate_in < 0) return -30000 - r.mate_in;
        return r.score_cp;
    };
    long long worst = value(results[0]);
    for (const Result& r : results)
        if (r.depth > 0 && r.best) worst = std::min(worst, value(r));
    const auto votes = [&](Move m) {
        long long v = 0;
        for (const Result& r : results)
            if (r.depth > 0 && r.best == m) v += (value(r) - worst + 14) * r.depth;
        return v;
    };
    std::size_t best = 0;
    long long best_votes = votes(results[0].best);
    for (std::size_t i = 1; i < results.size(); ++i) {
        const Result& r = results[i];
        if (r.depth == 0 || !r.best) continue;
        const long long v = votes(r.best);
        // Among threads of the winning move, the deepest one's line is reported.
        if (v > best_votes || (r.best == results[best].best && r.depth > results[best].depth)) {
            best = i;
            best_votes = v;
        }
    }
    return best;
}

}  // namespace xq::engine
