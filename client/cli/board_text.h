// Draws a Xiangqi position as terminal text: Unicode pieces (帥仕相俥傌炮兵 / 將士象車馬砲卒)
// or FEN letters, optional ANSI colours, the last move marked, flipped for Black.
#pragma once

#include <string>

#include "xiangqi/position.h"
#include "xiangqi/types.h"

namespace xq::client {

struct BoardStyle {
    bool unicode = true;   // CJK pieces (2 columns each); false: FEN letters
    bool color = false;    // ANSI colours: red pieces red, last move and checked king highlighted
    bool flipped = false;  // Black's view: rank 0 on top, file i on the left
};

// The glyph of a piece: "俥" / "車" in Unicode, "R" / "r" otherwise (2 columns wide either way
// in the drawn board; letters are padded).
std::string piece_glyph(Piece p, bool unicode);

// The whole board as lines ending in '\n'. The last move's origin is drawn as (·) and its
// target as [X]; with colours both get a background as well.
std::string render_board(const Position& pos, Move last_move, const BoardStyle& style);

}  // namespace xq::client
