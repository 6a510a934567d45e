#include "core/move_text.h"

#include "xiangqi/notation.h"

namespace xq::client {

MoveEntry describe_move(const Position& before, Move m) {
    MoveEntry e;
    e.move = m;
    e.iccs = to_iccs(m);
    // The writers need a legal move; a move that is not (a corrupt record) keeps ICCS only.
    if (before.is_pseudo_legal(m) && before.is_legal(m)) {
        e.wxf = to_wxf(before, m);
        e.chinese = to_chinese(before, m);
    }
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
