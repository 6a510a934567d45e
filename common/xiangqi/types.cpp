#include "types.h"

namespace xq {

std::string square_to_string(Square s) {
    if (!is_ok(s)) return "-";
    return std::string{char('a' + file_of(s)), char('0' + rank_of(s))};
}

Square square_from_string(std::string_view t) {
    if (t.size() != 2) return SQ_NONE;
    char f = t[0], r = t[1];
    if (f >= 'A' && f <= 'I') f = char(f - 'A' + 'a');
    if (f < 'a' || f > 'i' || r < '0' || r > '9') return SQ_NONE;
    return make_square(f - 'a', r - '0');
}

std::string move_to_iccs(Move m) {
    if (!m.is_ok()) return "0000";
    return square_to_string(m.from()) + square_to_string(m.to());
}

char piece_to_char(Piece p) {
    constexpr std::string_view letters = ".KABNRCP";
    if (p == NO_PIECE || type_of(p) == NO_PIECE_TYPE) return '.';
    const char c = letters[type_of(p)];
    return color_of(p) == RED ? c : char(c - 'A' + 'a');
}

Piece piece_from_char(char c) {
    const Color col = (c >= 'a' && c <= 'z') ? BLACK : RED;
    const char u = (c >= 'a' && c <= 'z') ? char(c - 'a' + 'A') : c;
    PieceType t;
    switch (u) {
    case 'K': t = KING; break;
    case 'A': t = ADVISOR; break;
    case 'B': case 'E': t = ELEPHANT; break;
    case 'N': case 'H': t = HORSE; break;
    case 'R': t = ROOK; break;
    case 'C': t = CANNON; break;
    case 'P': t = PAWN; break;
    default: return NO_PIECE;
    }
    return make_piece(col, t);
}

std::string_view piece_type_name(PieceType t) {
    constexpr std::string_view names[] = {"none", "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn"};
    return t < PIECE_TYPE_NB ? names[t] : "none";
}

std::string_view color_name(Color c) { return c == RED ? "Red" : "Black"; }

}  // namespace xq
