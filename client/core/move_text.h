// Move list entries in the three notations the table screen can show.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/client_state.h"

namespace xq::client {

// `before` is the position the move was played in.
MoveEntry describe_move(const Position& before, Move m);
std::vector<MoveEntry> describe_moves(const Position& start, const std::vector<Move>& moves);

// An AI's principal variation from the server (ICCS words): the moves up to the first one that
// is not legal where it would be played, none when `side` is not the side to move in `pos`
// (a line for a position the board has left), at most PV_MAX (the protocol's AI_PV_MAX).
inline constexpr std::size_t PV_MAX = 8;
std::vector<Move> parse_pv(const Position& pos, Color side, const std::vector<std::string>& words);
// The texts of a line of legal moves from pos in the chosen notation.
std::vector<std::string> pv_texts(const Position& pos, const std::vector<Move>& pv, MoveNotation n);
// The longest head of `parts`, joined by spaces, that `width` says fits in max_width; when parts
// are left out it ends in "…" (which fits too). Empty when not even one part fits.
std::string fit_parts(const std::vector<std::string>& parts, float max_width,
                      const std::function<float(const std::string&)>& width);

}  // namespace xq::client
