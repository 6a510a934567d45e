#include "see.h"

#include <algorithm>
#include <array>

#include "eval.h"
#include "xiangqi/tables.h"

namespace xq::engine {

namespace {

using tables::TABLES;
using Board = std::array<Piece, SQ_NB>;

// Large enough that giving up the king never pays, small enough to keep the sums in int.
constexpr int SEE_KING_VALUE = 10000;

int see_value(Piece p) { return type_of(p) == KING ? SEE_KING_VALUE : PIECE_VALUE[type_of(p)]; }

// The point of colour c's cheapest piece attacking sq on board b, or SQ_NONE.
Square cheapest_attacker(const Board& b, Square sq, Color c) {
    const Piece pawn = make_piece(c, PAWN);
    const int r = rank_of(sq), f = file_of(sq);
    const int behind = c == RED ? r - 1 : r + 1;  // a pawn steps forward onto sq from here
    if (behind >= 0 && behind < RANK_NB && b[make_square(f, behind)] == pawn) return make_square(f, behind);
    if (crossed_river(c, sq)) {  // sideways steps exist only across the river
        if (f > 0 && b[sq - 1] == pawn) return Square(sq - 1);
        if (f < FILE_NB - 1 && b[sq + 1] == pawn) return Square(sq + 1);
    }
    if (in_palace(c, sq)) {
        const Piece advisor = make_piece(c, ADVISOR);
        const auto& l = TABLES.advisor[sq];
        for (int i = 0; i < l.count; ++i)
            if (b[l.steps[i].to] == advisor) return Square(l.steps[i].to);
    }
    const Piece elephant = make_piece(c, ELEPHANT);
    for (int i = 0; i < TABLES.elephant[sq].count; ++i) {
        const auto& s = TABLES.elephant[sq].steps[i];
        if (b[s.to] == elephant && b[s.block] == NO_PIECE) return Square(s.to);
    }
    const Piece horse = make_piece(c, HORSE);
    for (int i = 0; i < TABLES.horse_from[sq].count; ++i) {
        const auto& s = TABLES.horse_from[sq].steps[i];
        if (b[s.to] == horse && b[s.block] == NO_PIECE) return Square(s.to);
    }
    // Rooks and cannons along the four rays: the first piece met, and the one behind it.
    const Piece rook = make_piece(c, ROOK), cannon = make_piece(c, CANNON);
    Square rook_sq = SQ_NONE;
    for (int d = 0; d < 4; ++d) {
        const auto& ray = TABLES.rays[sq][d];
        int i = 0;
        while (i < ray.count && b[ray.squares[i]] == NO_PIECE) ++i;
        if (i == ray.count) continue;
        if (b[ray.squares[i]] == rook) rook_sq = Square(ray.squares[i]);
        for (++i; i < ray.count; ++i) {
            const Piece q = b[ray.squares[i]];
            if (q == NO_PIECE) continue;
            if (q == cannon) return Square(ray.squares[i]);
            break;
        }
    }
    if (rook_sq != SQ_NONE) return rook_sq;
    if (in_palace(c, sq)) {
        const Piece king = make_piece(c, KING);
        const auto& l = TABLES.king[sq];
        for (int i = 0; i < l.count; ++i)
            if (b[l.steps[i].to] == king) return Square(l.steps[i].to);
    }
    return SQ_NONE;
}

}  // namespace

int see(const Position& pos, Move m) {
    Board b;
    for (int s = 0; s < SQ_NB; ++s) b[s] = pos.piece_on(Square(s));
    const Square from = m.from(), to = m.to();
    // gain[d]: the balance for the side making the d-th capture if the exchange stopped there.
    std::array<int, 34> gain{};
    int d = 0;
    gain[0] = b[to] == NO_PIECE ? 0 : see_value(b[to]);
    Piece on_target = b[from];
    b[to] = on_target;
    b[from] = NO_PIECE;
    Color side = ~color_of(on_target);
    while (d + 1 < int(gain.size())) {
        const Square a = cheapest_attacker(b, to, side);
        if (a == SQ_NONE) break;
        ++d;
        gain[d] = see_value(on_target) - gain[d - 1];
        // Neither side can do better by going on: stop early.
        if (std::max(-gain[d - 1], gain[d]) < 0) break;
        on_target = b[a];
        b[to] = on_target;
        b[a] = NO_PIECE;
        side = ~side;
    }
    for (; d > 0; --d) gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
    return gain[0];
}

}  // namespace xq::engine
