// Move list entries in the three notations the table screen can show.
#pragma once

#include <vector>

#include "core/client_state.h"

namespace xq::client {

// `before` is the position the move was played in.
MoveEntry describe_move(const Position& before, Move m);
std::vector<MoveEntry> describe_moves(const Position& start, const std::vector<Move>& moves);

}  // namespace xq::client
