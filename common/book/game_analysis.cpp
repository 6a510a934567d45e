#include "book/game_analysis.h"

#include <algorithm>
#include <cstdio>

namespace xq::book {

namespace {

int red_view(const engine::Result& r, Color side) {
    int cp = r.score_cp;
    if (r.mate_in > 0) cp = 30000 - r.mate_in;
    if (r.mate_in < 0) cp = -30000 - r.mate_in;
    return side == RED ? cp : -cp;
}

// The loss of each played move: the evaluation before (the best) against after, for the
// mover; a move the search also chose loses nothing by definition.
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

std::vector<PlyEval> analyse_game(engine::Engine& engine, const Position& start, const std::vector<Move>& moves,
                                  std::uint64_t nodes, const AnalysisProgress& progress,
                                  const std::atomic<bool>* stop) {
    std::vector<PlyEval> out;
    // The moves that replay legally; analysis stops at the first that does not.
    std::vector<Move> game;
    {
        Position p = start;
        for (Move m : moves) {
            MoveList legal;
            p.generate_legal(legal);
            if (!legal.contains(m)) break;
            UndoInfo u;
            p.do_move(m, u);
            game.push_back(m);
        }
    }
    const int total = int(game.size()) + 1;
    engine::Limits lim;
    lim.nodes = nodes;
    Position pos = start;
    std::vector<Move> so_far;
    for (int ply = 0; ply < total; ++ply) {
        if (stop && stop->load()) break;
        const engine::Result r = engine.search(start, so_far, lim, {}, stop);
        if (stop && stop->load()) break;
        PlyEval e;
        e.ply = ply;
        e.best = r.best;
        if (!r.best) {
            // No legal move: the side to move has lost (mate or stalemate).
            e.eval_cp = pos.side_to_move() == RED ? -30000 : 30000;
        } else {
            e.eval_cp = red_view(r, pos.side_to_move());
            e.mate_in = pos.side_to_move() == RED ? r.mate_in : -r.mate_in;
        }
        if (ply < int(game.size())) e.played = game[std::size_t(ply)];
        out.push_back(e);
        if (ply < int(game.size())) {
            UndoInfo u;
            pos.do_move(game[std::size_t(ply)], u);
            so_far.push_back(game[std::size_t(ply)]);
        }
        if (progress) progress(ply + 1, total);
    }
    fill_losses(out, start.side_to_move());
    return out;
}

std::vector<PlyEval> stored_analysis(const Position& start, const std::vector<Move>& moves,
                                     const std::vector<int>& evals, const std::vector<Move>& best) {
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
                                           const std::vector<int>& evals, const std::vector<Move>& best) {
    const std::vector<PlyEval> e = stored_analysis(start, moves, evals, best);
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
