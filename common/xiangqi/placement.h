// Where each piece may stand and how many of each a side owns: the placement rules the FEN
// reader enforces, for callers that build positions point by point (the position editor).
#pragma once

#include <array>
#include <string>

#include "xiangqi/position.h"

namespace xq {

// Why `p` can never stand on `s` (BadKingSquare, BadAdvisorSquare, BadElephantSquare,
// BadPawnSquare), or FenError::None when it may.
FenError placement_error(Piece p, Square s);

// How many pieces of type `t` one side owns in a full set (king 1, pawns 5, others 2).
int pieces_in_a_set(PieceType t);

// The FEN's first field (ranks 9 to 0, files a to i) for any board, legal or not.
std::string placement_fen(const std::array<Piece, SQ_NB>& board);

}  // namespace xq
