#include "core/position_editor.h"

#include "xiangqi/placement.h"

namespace xq::client {

PositionEditor::PositionEditor() { set_start(); }

void PositionEditor::clear() {
    board_.fill(NO_PIECE);
    side_ = RED;
}

void PositionEditor::set_start() {
    const FenError e = load_fen(START_FEN);
    (void)e;  // the start position is always accepted
}

int PositionEditor::count(Piece p) const {
    int n = 0;
    for (Piece q : board_) n += q == p;
    return n;
}

int PositionEditor::left_in_set(Piece p) const { return pieces_in_a_set(type_of(p)) - count(p); }

FenError PositionEditor::place(Piece p, Square s) {
    if (p == NO_PIECE || !is_ok(s)) return FenError::UnknownPiece;
    if (const FenError e = placement_error(p, s); e != FenError::None) return e;
    // Replacing a piece of the same kind never adds one.
    if (board_[s] != p && left_in_set(p) <= 0)
        return type_of(p) == KING ? FenError::TooManyKings : FenError::TooManyPieces;
    board_[s] = p;
    return FenError::None;
}

FenError PositionEditor::move(Square from, Square to) {
    if (!is_ok(from) || !is_ok(to) || board_[from] == NO_PIECE) return FenError::UnknownPiece;
    if (from == to) return FenError::None;
    const Piece p = board_[from];
    if (const FenError e = placement_error(p, to); e != FenError::None) return e;
    board_[from] = NO_PIECE;
    board_[to] = p;
    return FenError::None;
}

FenError PositionEditor::load_fen(std::string_view fen) {
    Position pos;
    if (const FenError e = pos.set_fen(fen); e != FenError::None) return e;
    for (int i = 0; i < SQ_NB; ++i) board_[std::size_t(i)] = pos.piece_on(Square(i));
    side_ = pos.side_to_move();
    return FenError::None;
}

std::string PositionEditor::fen() const {
    return placement_fen(board_) + (side_ == RED ? " w - - 0 1" : " b - - 0 1");
}

FenError PositionEditor::check() const {
    Position pos;
    return pos.set_fen(fen());
}

std::optional<Position> PositionEditor::position() const {
    Position pos;
    if (pos.set_fen(fen()) != FenError::None) return std::nullopt;
    return pos;
}

}  // namespace xq::client
