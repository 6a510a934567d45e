#include "core/move_text.h"

namespace xq::client {

MoveEntry describe_move(const Position& before, Move m) {
    MoveEntry e;
    e.move = m;
    e.iccs = move_to_iccs(m);
    (void)before;
    return e;
}

std::vector<MoveEntry> describe_moves(const Position& start, const std::vector<Move>& moves) {
    std::vector<MoveEntry> out;
    out.reserve(moves.size());
    Position pos = start;
    for (Move m : moves) {
        out.push_back(describe_move(pos, m));
        UndoInfo u;
        pos.do_move(m, u);
    }
    return out;
}

}  // namespace xq::client
