// The position editor's board (摆棋): pieces placed and removed point by point, the side to
// move, FEN in and out. The board may be incomplete while it is edited; what the rules code
// says of it (the first refusal, in the FEN reader's terms) is there at every step.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "xiangqi/position.h"

namespace xq::client {

class PositionEditor {
public:
    PositionEditor();  // the standard start position

    Piece at(Square s) const { return board_[s]; }
    Color side_to_move() const { return side_; }
    void set_side_to_move(Color c) { side_ = c; }

    // Puts `p` on `s` (replacing what stood there). Refused, with the reason, when `p` can
    // never stand on `s` (BadKingSquare, BadAdvisorSquare, BadElephantSquare, BadPawnSquare)
    // or when its side already has every piece of that kind (TooManyKings, TooManyPieces).
    FenError place(Piece p, Square s);
    void remove(Square s) { board_[s] = NO_PIECE; }
    // Moves the piece on `from` to `to` (a drag on the board), under the rules of place().
    FenError move(Square from, Square to);
    void clear();  // an empty board (the kings too)
    void set_start();

    // How many of `p` stand on the board, and how many more its side may place.
    int count(Piece p) const;
    int left_in_set(Piece p) const;

    // Reads a FEN (the rules code judges it); on a refusal the board is unchanged.
    FenError load_fen(std::string_view fen);
    // The board as FEN, whatever it holds (even without kings), with the side to move.
    std::string fen() const;
    // What the rules code says of the board now: FenError::None when it is a legal start.
    FenError check() const;
    // The position, when check() passes.
    std::optional<Position> position() const;

private:
    std::array<Piece, SQ_NB> board_{};
    Color side_ = RED;
};

}  // namespace xq::client
