#include "book/book_player.h"

#include <algorithm>
#include <chrono>

namespace xq::book {

namespace {

// A score comparable across the two sanity searches: mates folded into large centipawns.
int comparable(const engine::Result& r) {
    if (r.mate_in > 0) return 30000 - r.mate_in;
    if (r.mate_in < 0) return -30000 - r.mate_in;
    return r.score_cp;
}

}  // namespace

BookPlay play(engine::Engine& engine, const Position& start, const std::vector<Move>& moves,
              const std::vector<BookMove>& candidates, const engine::Limits& limits,
              const engine::ProgressFn& on_progress, const std::atomic<bool>* stop) {
    BookPlay out;
    const auto began = std::chrono::steady_clock::now();
    std::vector<BookMove> left = candidates;
    engine::Limits check;
    check.nodes = SANITY_NODES;
    check.level = engine::MAX_LEVEL;
    // On a clock (or a movetime) each check search takes at most a quarter of the move's
    // budget, so that the book never costs a time loss.
    const int budget = limits.hard_ms > 0 ? limits.hard_ms : limits.movetime_ms;
    if (budget > 0) check.hard_ms = check.soft_ms = std::max(1, budget / 4);
    std::uint64_t seed = limits.seed;
    for (int tries = 0; tries < SANITY_TRIES && !left.empty(); ++tries) {
        const Move m = choose(left, limits.level, seed);
        if (!m) break;
        // A stop (UCI stop/quit, a cancelled seat) leaves the checks to the search below,
        // which still answers a legal move at once.
        if (stop && stop->load()) break;
        const engine::Result all = engine.search(start, moves, check, {}, stop);
        engine::Limits only = check;
        only.searchmoves = {m};
        const engine::Result mine = engine.search(start, moves, only, {}, stop);
        if (stop && stop->load()) break;
        if (all.best == m || comparable(all) - comparable(mine) < SANITY_MARGIN_CP) {
            out.result = mine;
            out.result.best = m;
            out.from_book = true;
            return out;
        }
        out.rejected.push_back(m);
        left.erase(std::remove_if(left.begin(), left.end(), [m](const BookMove& bm) { return bm.move == m; }),
                   left.end());
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    }
    // Out of book here: search, but never repeat a move the book has seen lose clearly.
    engine::Limits searched = limits;
    // The checks' time comes off the move's budget.
    const int spent = int(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began)
                              .count());
    if (searched.hard_ms > 0) {
        searched.hard_ms = std::max(1, searched.hard_ms - spent);
        searched.soft_ms = std::min(searched.soft_ms, searched.hard_ms);
    } else if (searched.movetime_ms > 0) {
        searched.movetime_ms = std::max(1, searched.movetime_ms - spent);
    }
    Position pos = start;
    for (Move m : moves) {
        UndoInfo u;
        pos.do_move(m, u);
    }
    MoveList legal;
    pos.generate_legal(legal);
    std::vector<Move> ban;
    for (const auto& bm : candidates)
        if (refuted(bm.stats)) ban.push_back(bm.move);
    if (!ban.empty() && std::size_t(legal.size()) > ban.size())
        searched.banmoves.insert(searched.banmoves.end(), ban.begin(), ban.end());
    out.result = engine.search(start, moves, searched, on_progress, stop);
    return out;
}

}  // namespace xq::book
