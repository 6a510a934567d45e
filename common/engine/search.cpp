#include "search.h"

// First cut: a plain fixed-depth material negamax so that the system runs end to end.
// The engine work replaces this with the real search.
namespace xq::engine {

namespace {
constexpr int VALUE[PIECE_TYPE_NB] = {0, 0, 20, 20, 40, 90, 45, 10};

int material(const Position& pos) {
    int s = 0;
    for (int t = ADVISOR; t <= PAWN; ++t)
        s += VALUE[t] * (pos.count(RED, PieceType(t)) - pos.count(BLACK, PieceType(t)));
    return pos.side_to_move() == RED ? s : -s;
}

int negamax(Position& pos, int depth, int alpha, int beta, std::uint64_t& nodes) {
    ++nodes;
    MoveList list;
    pos.generate_legal(list);
    if (list.empty()) return -10000;
    if (depth == 0) return material(pos);
    UndoInfo u;
    for (Move m : list) {
        pos.do_move(m, u);
        const int v = -negamax(pos, depth - 1, -beta, -alpha, nodes);
        pos.undo_move(m, u);
        if (v > alpha) alpha = v;
        if (alpha >= beta) break;
    }
    return alpha;
}
}  // namespace

struct Engine::Impl {};

Engine::Engine(std::size_t) : impl_(std::make_unique<Impl>()) {}
Engine::~Engine() = default;
void Engine::set_hash_mb(std::size_t) {}
void Engine::new_game() {}

Result Engine::search(const Position& start, const std::vector<Move>& moves, const Limits& limits,
                      const ProgressFn& on_progress, const std::atomic<bool>*) {
    Position pos = start;
    UndoInfo u;
    for (Move m : moves) pos.do_move(m, u);
    Result r;
    MoveList list;
    pos.generate_legal(list);
    if (list.empty()) return r;
    const int depth = limits.depth > 0 ? limits.depth : 3;
    int best = -100000;
    for (int i = 0; i < list.size(); ++i) {
        pos.do_move(list[i], u);
        const int v = -negamax(pos, depth - 1, -100000, -best, r.nodes);
        pos.undo_move(list[i], u);
        if (v > best) {
            best = v;
            r.best = list[i];
        }
        if (on_progress) {
            Progress p;
            p.depth = depth;
            p.score_cp = best;
            p.nodes = r.nodes;
            p.root_done = i + 1;
            p.root_total = list.size();
            p.pv = {r.best};
            on_progress(p);
        }
    }
    r.score_cp = best;
    r.depth = depth;
    return r;
}

}  // namespace xq::engine
