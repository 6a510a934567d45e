// Static evaluation: material, piece-square tables, mobility and piece relations (attacked,
// defended and hanging pieces, king safety), tapered between middle game and end game.
#pragma once

#include <string>

#include "xiangqi/position.h"

namespace xq::engine {

// Centipawn values used by move ordering and pruning (middle-game material).
inline constexpr int PIECE_VALUE[PIECE_TYPE_NB] = {0, 0, 200, 200, 420, 950, 450, 90};

// Score in centipawns from the side to move's point of view.
int evaluate(const Position& pos);

// The same score split into its terms (Red's point of view), for `eval` in the front end
// and for tuning. One line per term.
std::string eval_trace(const Position& pos);

}  // namespace xq::engine
