// The Zobrist key a move leads to, without making it: Position::do_move sets its key from this,
// and the search prefetches the child's table entries by it before the move is made.
#pragma once

#include <cstdint>

#include "position.h"
#include "tables.h"

namespace xq {

// `m` moves the piece on its from-point (pseudo-legal or legal; an empty target point has the
// zero key, so a capture and a quiet move need no branch).
inline std::uint64_t key_after(const Position& pos, Move m) {
    const auto& z = tables::TABLES.zobrist;
    const Piece p = pos.piece_on(m.from()), captured = pos.piece_on(m.to());
    return pos.key() ^ z[captured][m.to()] ^ z[p][m.from()] ^ z[p][m.to()] ^ tables::TABLES.zobrist_side;
}

}  // namespace xq
