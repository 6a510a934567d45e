// Static exchange evaluation: what a move wins or loses on its target point when both sides
// then recapture there with their cheapest piece for as long as it pays (pins ignored).
#pragma once

#include "xiangqi/position.h"

namespace xq::engine {

// Centipawns (PIECE_VALUE) won by the side to move when it plays the pseudo-legal move m,
// a capture or a quiet move, and the exchange on m.to() then runs its course: 0 for a quiet
// move to a safe point, negative when the piece is lost for less.
int see(const Position& pos, Move m);

}  // namespace xq::engine
