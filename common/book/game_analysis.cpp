#include "book/game_analysis.h"

#include <algorithm>
#include <cstdio>

#include "book/game_walk.h"
#include "book/starter_openings.h"
#include "xiangqi/pgn.h"

namespace xq::book {

namespace {

// A search's score for the side to move; mates as +-(30000 - distance).
int mover_cp(const engine::Result& r) {
    if (r.mate_in > 0) return 30000 - r.mate_in;
    if (r.mate_in < 0) return -30000 - r.mate_in;
    return r.score_cp;
}

// Keeps iteration p's score (side to move's view) at [p.depth].
void record(std::vector<int>& by_depth, const engine::Progress& p) {
    if (by_depth.size() <= std::size_t(p.depth)) by_depth.resize(std::size_t(p.depth) + 1, 0);
    engine::Result x;
    x.score_cp = p.score_cp;
    x.mate_in = p.mate_in;
    by_depth[std::size_t(p.depth)] = mover_cp(x);
}

// The loss of each played move as analyses stored before analyse_position measured it (they
// kept no losses): the evaluation before (the best) against after, for the mover; a move the
// search also chose loses nothing by definition.
void fill_losses(std::vector<PlyEval>& e, Color first_mover) {
    for (std::size_t i = 0; i + 1 < e.size(); ++i) {
        const bool red = (i % 2 == 0) == (first_mover == RED);
        const int diff = red ? e[i].eval_cp - e[i + 1].eval_cp : e[i + 1].eval_cp - e[i].eval_cp;
        e[i].loss_cp = e[i].played == e[i].best ? 0 : std::clamp(diff, 0, 30000);
    }
}

std::string pawns(int cp) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", double(cp) / 100.0);
    return buf;
}

}  // namespace

Mark mark_of(int loss_cp) {
    if (loss_cp >= 300) return Mark::Blunder;
    if (loss_cp >= 100) return Mark::Mistake;
    if (loss_cp >= 50) return Mark::Inaccuracy;
    return Mark::None;
}

const char* mark_name(Mark m) {
    switch (m) {
    case Mark::Inaccuracy: return "inaccuracy";
    case Mark::Mistake: return "mistake";
    case Mark::Blunder: return "blunder";
    case Mark::None: break;
    }
    return "";
}

const char* mark_nag(Mark m) {
    switch (m) {
    case Mark::Inaccuracy: return "?!";
    case Mark::Mistake: return "?";
    case Mark::Blunder: return "??";
    case Mark::None: break;
    }
    return "";
}

namespace {

// `pos` analysed at `budget`; the engine searches it as reached from `start` by `moves`
// (the history it judges repetitions by).
PositionEval analyse_at(engine::Engine& engine, const Position& start, const std::vector<Move>& moves,
                        const Position& pos, Move played, const AnalysisBudget& budget,
                        const std::atomic<bool>* stop) {
    PositionEval out;
    const Color us = pos.side_to_move();
    engine::Limits lim;
    lim.depth = std::max(1, budget.depth);
    lim.nodes = budget.nodes;
    engine::Result even;             // the deepest even iteration finished
    std::vector<int> best_by_depth;  // [d]: the best score of iteration d (side to move's view)
    out.search = engine.search(start, moves, lim,
                               [&](const engine::Progress& p) {
                                   if (!p.iteration_done || p.pv.empty()) return;
                                   record(best_by_depth, p);
                                   if (p.depth % 2 != 0) return;
                                   even.best = p.pv.front();
                                   even.pv = p.pv;
                                   even.ponder = p.pv.size() >= 2 ? p.pv[1] : Move::none();
                                   even.score_cp = p.score_cp;
                                   even.mate_in = p.mate_in;
                                   even.depth = p.depth;
                               },
                               stop);
    if (!out.search.best) {
        // No legal move: the side to move has lost (mate or stalemate).
        out.eval_cp = us == RED ? -30000 : 30000;
        return out;
    }
    if (even.best) {
        even.nodes = out.search.nodes;
        out.search = even;
    }
    out.eval_cp = us == RED ? mover_cp(out.search) : -mover_cp(out.search);
    out.mate_in = us == RED ? out.search.mate_in : -out.search.mate_in;
    if (stop && stop->load()) return out;

    if (!played || played == out.search.best || (stop && stop->load())) return out;
    out.book = budget.book_moves && is_book_move(pos, played);
    engine::Limits only = lim;
    const int depth = std::max(1, out.search.depth);
    only.depth = depth;
    only.searchmoves = {played};
    std::vector<int> played_by_depth;
    const engine::Result r = engine.search(start, moves, only,
                                           [&](const engine::Progress& p) {
                                               if (p.iteration_done && !p.pv.empty()) record(played_by_depth, p);
                                           },
                                           stop);
    if (r.best != played) return out;
    int loss = std::clamp(mover_cp(out.search) - mover_cp(r), 0, 30000);
    const std::size_t prev = std::size_t(depth - 1);
    if (depth >= 2 && prev < best_by_depth.size() && prev < played_by_depth.size())
        loss = std::min(loss, std::clamp(best_by_depth[prev] - played_by_depth[prev], 0, 30000));
    out.loss_cp = loss;
    return out;
}

}  // namespace

bool GameWalk::step(Move m) {
    MoveList legal;
    pos_.generate_legal(legal);
    if (!legal.contains(m)) return false;
    const bool capture = pos_.is_capture(m);
    UndoInfo u;
    pos_.do_move(m, u);
    if (capture) {
        base_ = pos_;
        since_.clear();
    } else {
        since_.push_back(m);
    }
    return true;
}

PositionEval analyse_position(engine::Engine& engine, const Position& start, const std::vector<Move>& moves,
                              Move played, const AnalysisBudget& budget, const std::atomic<bool>* stop) {
    Position pos = start;
    for (Move m : moves) {
        MoveList legal;
        pos.generate_legal(legal);
        if (!legal.contains(m)) break;
        UndoInfo u;
        pos.do_move(m, u);
    }
    return analyse_at(engine, start, moves, pos, played, budget, stop);
}

PositionEval analyse_position(engine::Engine& engine, const GameWalk& at, Move played, const AnalysisBudget& budget,
                              const std::atomic<bool>* stop) {
    return analyse_at(engine, at.base(), at.since_base(), at.position(), played, budget, stop);
}

int remove_lean(std::vector<int>& evals, const std::vector<int>& losses, Color first_mover) {
    auto decided = [](int cp) { return std::abs(cp) >= engine::RULE_WIN_CP / 2; };
    auto red_moves = [&](std::size_t i) { return (i % 2 == 0) == (first_mover == RED); };
    std::vector<int> leans;
    for (std::size_t i = 0; i + 1 < evals.size() && i < losses.size(); ++i) {
        if (decided(evals[i]) || decided(evals[i + 1]) || decided(losses[i])) continue;
        const int drop = red_moves(i) ? evals[i] - evals[i + 1] : evals[i + 1] - evals[i];
        leans.push_back(drop - losses[i]);
    }
    if (int(leans.size()) < MIN_LEAN_PAIRS) return 0;
    std::nth_element(leans.begin(), leans.begin() + std::ptrdiff_t(leans.size() / 2), leans.end());
    const int lean = std::clamp(leans[leans.size() / 2] / 2, 0, MAX_LEAN_CP);
    for (std::size_t i = 0; i < evals.size(); ++i)
        if (!decided(evals[i])) evals[i] += red_moves(i) ? -lean : lean;
    return lean;
}

const Book& starter_book() {
    static const Book b = [] {
        Book built;
        for (const auto& f : starter_openings()) add_pgn(built, f.pgn);
        return built;
    }();
    return b;
}

bool is_book_move(const Position& pos, Move m) {
    const auto* list = starter_book().find(pos.key());
    if (!list) return false;
    for (const BookMove& b : *list)
        if (b.move == m) return pos.is_legal(m, pos.in_check());
    return false;
}

std::vector<PlyEval> analyse_game(engine::Engine& engine, const Position& start, const std::vector<Move>& moves,
                                  const AnalysisBudget& budget, const AnalysisProgress& progress,
                                  const std::atomic<bool>* stop) {
    std::vector<PlyEval> out;
    // The moves that replay legally; analysis stops at the first that does not.
    std::size_t legal_moves = 0;
    {
        GameWalk check(start);
        while (legal_moves < moves.size() && check.step(moves[legal_moves])) ++legal_moves;
    }
    const int total = int(legal_moves) + 1;
    GameWalk walk(start);
    std::vector<int> engine_losses;  // book moves too: remove_lean reads them
    for (int ply = 0; ply < total; ++ply) {
        if (stop && stop->load()) break;
        const Move played = ply < int(legal_moves) ? moves[std::size_t(ply)] : Move::none();
        const PositionEval pe = analyse_position(engine, walk, played, budget, stop);
        const engine::Result& r = pe.search;
        if (stop && stop->load()) break;
        PlyEval e;
        e.ply = ply;
        e.best = r.best;
        e.eval_cp = pe.eval_cp;
        e.mate_in = pe.mate_in;
        e.played = played;
        e.loss_cp = pe.judged_loss_cp();
        if (played) engine_losses.push_back(pe.loss_cp);
        out.push_back(e);
        if (played) walk.step(played);
        if (progress) progress(ply + 1, total);
    }
    std::vector<int> evals;
    for (const PlyEval& e : out) evals.push_back(e.eval_cp);
    remove_lean(evals, engine_losses, start.side_to_move());
    for (std::size_t i = 0; i < out.size(); ++i) out[i].eval_cp = evals[i];
    return out;
}

std::vector<PlyEval> stored_analysis(const Position& start, const std::vector<Move>& moves,
                                     const std::vector<int>& evals, const std::vector<Move>& best,
                                     const std::vector<int>& losses) {
    std::vector<PlyEval> e;
    for (std::size_t i = 0; i < evals.size() && i < best.size() && i <= moves.size(); ++i) {
        PlyEval p;
        p.ply = int(i);
        p.eval_cp = evals[i];
        p.best = best[i];
        if (i < moves.size()) p.played = moves[i];
        e.push_back(p);
    }
    fill_losses(e, start.side_to_move());
    if (!losses.empty())
        for (std::size_t i = 0; i + 1 < e.size(); ++i)
            e[i].loss_cp = i < losses.size() ? std::clamp(losses[i], 0, 30000) : 0;
    return e;
}

std::array<PlayerSummary, COLOR_NB> summarise(const std::vector<PlyEval>& plies, Color first_mover) {
    std::array<PlayerSummary, COLOR_NB> out{};
    std::array<long, COLOR_NB> loss{};
    // The last position's move (if any) has no evaluation after it: it is not judged.
    for (std::size_t i = 0; i + 1 < plies.size(); ++i) {
        if (!plies[i].played) continue;
        const Color mover = i % 2 == 0 ? first_mover : ~first_mover;
        PlayerSummary& s = out[mover];
        ++s.moves;
        loss[mover] += std::min(plies[i].loss_cp, SUMMARY_LOSS_CAP_CP);
        switch (mark_of(plies[i].loss_cp)) {
        case Mark::Inaccuracy: ++s.inaccuracies; break;
        case Mark::Mistake: ++s.mistakes; break;
        case Mark::Blunder: ++s.blunders; break;
        case Mark::None: break;
        }
    }
    for (Color c : {RED, BLACK})
        if (out[c].moves > 0) out[c].average_loss_cp = int(loss[c] / out[c].moves);
    return out;
}

std::vector<std::string> analysis_comments(const Position& start, const std::vector<Move>& moves,
                                           const std::vector<int>& evals, const std::vector<Move>& best,
                                           const std::vector<int>& losses) {
    const std::vector<PlyEval> e = stored_analysis(start, moves, evals, best, losses);
    std::vector<std::string> out(moves.size());
    for (std::size_t i = 0; i + 1 < e.size(); ++i) out[i] = analysis_comment(e[i], e[i + 1]);
    return out;
}

std::string analysis_comment(const PlyEval& before, const PlyEval& after) {
    std::string c = "[%eval " + pawns(after.eval_cp) + "]";
    if (before.best && before.best != before.played) c += " best: " + move_to_iccs(before.best);
    const Mark m = mark_of(before.loss_cp);
    if (m != Mark::None) c += std::string(" (") + mark_name(m) + ")";
    return c;
}

}  // namespace xq::book
