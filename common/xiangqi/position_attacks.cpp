// Attack, check and legality tests of Position: whether a point is attacked (on the board or
// after a move), whether a move may give check or expose the own king. The search's hot path.
#include "position.h"

#include <type_traits>

#include "lines.h"
#include "tables.h"

namespace xq {

using lines::LINES;
using tables::TABLES;

namespace {

// The points from which a horse (through its leg, if free), a pawn of each colour, a king, an
// advisor and an elephant (through its eye, if free) attack a point, as two words like
// Position::pieces: most attack tests end at an empty intersection.
struct AttackerMasks {
    std::uint64_t horse[SQ_NB][2] = {};
    std::uint64_t pawn[COLOR_NB][SQ_NB][2] = {};
    std::uint64_t king[SQ_NB][2] = {};
    std::uint64_t advisor[SQ_NB][2] = {};
    std::uint64_t elephant[SQ_NB][2] = {};
};

// Steps of these pieces are symmetric: they attack s from the points they step to from s.
constexpr void add_steps(std::uint64_t (&mask)[2], const tables::StepList& steps) {
    for (int i = 0; i < steps.count; ++i) mask[steps.steps[i].to >> 6] |= std::uint64_t(1) << (steps.steps[i].to & 63);
}

constexpr AttackerMasks build_attacker_masks() {
    AttackerMasks m{};
    for (int k = 0; k < SQ_NB; ++k)
        for (int i = 0; i < TABLES.horse_from[k].count; ++i) {
            const int s = TABLES.horse_from[k].steps[i].to;
            m.horse[k][s >> 6] |= std::uint64_t(1) << (s & 63);
        }
    for (int c = 0; c < COLOR_NB; ++c)
        for (int s = 0; s < SQ_NB; ++s)
            for (int i = 0; i < TABLES.pawn[c][s].count; ++i)
                m.pawn[c][TABLES.pawn[c][s].steps[i].to][s >> 6] |= std::uint64_t(1) << (s & 63);
    for (int s = 0; s < SQ_NB; ++s) {
        add_steps(m.king[s], TABLES.king[s]);
        add_steps(m.advisor[s], TABLES.advisor[s]);
        add_steps(m.elephant[s], TABLES.elephant[s]);
    }
    return m;
}

constexpr AttackerMasks ATTACKERS = build_attacker_masks();

// The points of each rank and of each file, as two words like Position::pieces.
struct LineMasks {
    std::uint64_t rank[RANK_NB][2] = {};
    std::uint64_t file[FILE_NB][2] = {};
};

constexpr LineMasks build_line_masks() {
    LineMasks m{};
    for (int s = 0; s < SQ_NB; ++s) {
        m.rank[s / FILE_NB][s >> 6] |= std::uint64_t(1) << (s & 63);
        m.file[s % FILE_NB][s >> 6] |= std::uint64_t(1) << (s & 63);
    }
    return m;
}

constexpr LineMasks LINE_MASKS = build_line_masks();

// Whether a piece of the set (w0, w1: two words like Position::pieces) stands on `mask`.
inline bool any_in(std::uint64_t w0, std::uint64_t w1, const std::uint64_t* mask) {
    return ((w0 & mask[0]) | (w1 & mask[1])) != 0;
}
inline bool any_in(const std::uint64_t (&set)[2], const std::uint64_t* mask) { return any_in(set[0], set[1], mask); }

// The points of the line through s and k, which share a rank or a file.
inline const std::uint64_t* line_through(Square s, Square k) {
    return rank_of(s) == rank_of(k) ? LINE_MASKS.rank[rank_of(k)] : LINE_MASKS.file[file_of(k)];
}

// How two points relate, for the fast legality and check tests: on one file or rank, diagonal
// neighbours (a horse leg of the other), a horse's step apart. A table instead of divisions
// by 9 on every test.
enum Relation : std::uint8_t { SAME_LINE = 1, DIAGONAL_NEIGHBOUR = 2, HORSE_STEP = 4 };

constexpr std::array<std::array<std::uint8_t, SQ_NB>, SQ_NB> build_relations() {
    std::array<std::array<std::uint8_t, SQ_NB>, SQ_NB> t{};
    for (int a = 0; a < SQ_NB; ++a)
        for (int b = 0; b < SQ_NB; ++b) {
            const int df = a % FILE_NB - b % FILE_NB, dr = a / FILE_NB - b / FILE_NB;
            const int adf = df < 0 ? -df : df, adr = dr < 0 ? -dr : dr;
            std::uint8_t r = 0;
            if (df == 0 || dr == 0) r |= SAME_LINE;
            if (adf == 1 && adr == 1) r |= DIAGONAL_NEIGHBOUR;
            if (adf + adr == 3 && adf && adr) r |= HORSE_STEP;
            t[a][b] = r;
        }
    return t;
}

constexpr auto RELATIONS = build_relations();

// Rooks, cannons and the facing king act along lines, horses through their legs (the points
// diagonally next to the king); pawns cannot be uncovered. So a move can open or close an
// attack on a king k only from or to such a point relative to k, and only where a piece that
// acts that way stands (is_legal, may_give_check).

}  // namespace

template <bool Moved, bool OnlyChanged, Color us>
bool Position::attacked_after(Square k, Square from, Square to) const {
    static_assert(Moved || !OnlyChanged, "only a move changes anything");
    constexpr Color them = ~us;
    const Piece mover = Moved ? board_[from] : NO_PIECE;
    auto at = [&](int s) -> Piece {
        if constexpr (Moved) {
            if (s == to) return mover;
            if (s == from) return NO_PIECE;
        }
        return board_[s];
    };
    const Piece e_rook = make_piece(them, ROOK), e_cannon = make_piece(them, CANNON),
                e_king = make_piece(them, KING), e_horse = make_piece(them, HORSE),
                e_pawn = make_piece(them, PAWN);
    // Lines through k: the first piece each way (a rook, or the king on the file) and the
    // first piece beyond a screen (a cannon), from the line occupancy after the move.
    const int kr = rank_of(k), kf = file_of(k);
    unsigned rank_occ = rank_all_[kr];
    unsigned file_occ = file_all_[kf];
    bool rank_line = true, file_line = true;
    if constexpr (Moved) {
        const int fr = rank_of(from), ff = file_of(from), tr = rank_of(to), tf = file_of(to);
        if (fr == kr) rank_occ &= ~(1u << ff);
        if (ff == kf) file_occ &= ~(1u << fr);
        if (tr == kr) rank_occ |= 1u << tf;
        if (tf == kf) file_occ |= 1u << tr;
        // Nothing attacks k before the move: only a line that `from` or `to` lies on can change.
        if constexpr (OnlyChanged) {
            rank_line = fr == kr || tr == kr;
            file_line = ff == kf || tf == kf;
        }
    }
    if (rank_line) {
        for (unsigned b = LINES.rook[kf][rank_occ] & rank_occ; b; b &= b - 1)
            if (at(kr * FILE_NB + std::countr_zero(b)) == e_rook) return true;
        for (unsigned b = LINES.cannon[kf][rank_occ]; b; b &= b - 1)
            if (at(kr * FILE_NB + std::countr_zero(b)) == e_cannon) return true;
    }
    if (file_line) {
        for (unsigned b = LINES.rook[kr][file_occ] & file_occ; b; b &= b - 1) {
            const Piece first = at(std::countr_zero(b) * FILE_NB + kf);
            if (first == e_rook || first == e_king) return true;
        }
        for (unsigned b = LINES.cannon[kr][file_occ]; b; b &= b - 1)
            if (at(std::countr_zero(b) * FILE_NB + kf) == e_cannon) return true;
    }
    // Enemy horses and pawns where they could attack k from; a capture on `to` removes one,
    // and when the attacking side is the one moving (a check test), the mover changes place.
    auto enemy = [&](Piece p, const std::uint64_t* mask) {
        std::uint64_t set[2] = {pieces_[p][0], pieces_[p][1]};
        if constexpr (Moved) {
            set[to >> 6] &= ~(std::uint64_t(1) << (to & 63));
            if (mover == p) {
                set[from >> 6] &= ~(std::uint64_t(1) << (from & 63));
                set[to >> 6] |= std::uint64_t(1) << (to & 63);
            }
        }
        return ((set[0] & mask[0]) | (set[1] & mask[1])) != 0;
    };
    // Only changed: a horse attack needs the moved horse or the leg that `from` frees, a pawn
    // attack the moved pawn.
    if ((!OnlyChanged || mover == e_horse || (RELATIONS[from][k] & DIAGONAL_NEIGHBOUR)) &&
        enemy(e_horse, ATTACKERS.horse[k])) {
        const auto& hf = TABLES.horse_from[k];
        for (int i = 0; i < hf.count; ++i)
            if (at(hf.steps[i].to) == e_horse && at(hf.steps[i].block) == NO_PIECE) return true;
    }
    if ((!OnlyChanged || mover == e_pawn) && enemy(e_pawn, ATTACKERS.pawn[them][k])) return true;
    return false;
}

Position::CheckMask Position::check_mask() const {
    CheckMask mask;
    auto add = [&](int s) { mask.w[s >> 6] |= std::uint64_t(1) << (s & 63); };
    const Color them = ~side_;
    const Square k = king_[side_];
    const Piece e_rook = make_piece(them, ROOK), e_cannon = make_piece(them, CANNON),
                e_king = make_piece(them, KING), e_horse = make_piece(them, HORSE);
    const int kr = rank_of(k), kf = file_of(k);
    // A checker on k's rank or file and every point between it and k (a cannon's screen too).
    auto line = [&](int at, int step, int count) {
        for (int i = 1; i <= count; ++i) add(k + (at > int(k) ? i : -i) * step);
    };
    const unsigned rank_occ = rank_all_[kr];
    const unsigned file_occ = file_all_[kf];
    for (unsigned b = (LINES.rook[kf][rank_occ] & rank_occ) | LINES.cannon[kf][rank_occ]; b; b &= b - 1) {
        const int f = std::countr_zero(b), s = kr * FILE_NB + f;
        const bool rook = (LINES.rook[kf][rank_occ] >> f) & 1;
        if (board_[s] == (rook ? e_rook : e_cannon)) line(s, 1, f > kf ? f - kf : kf - f);
    }
    for (unsigned b = (LINES.rook[kr][file_occ] & file_occ) | LINES.cannon[kr][file_occ]; b; b &= b - 1) {
        const int r = std::countr_zero(b), s = r * FILE_NB + kf;
        const bool rook = (LINES.rook[kr][file_occ] >> r) & 1;
        if (rook ? (board_[s] == e_rook || board_[s] == e_king) : board_[s] == e_cannon)
            line(s, FILE_NB, r > kr ? r - kr : kr - r);
    }
    const auto& hf = TABLES.horse_from[k];
    for (int i = 0; i < hf.count; ++i)
        if (board_[hf.steps[i].to] == e_horse && board_[hf.steps[i].block] == NO_PIECE) {
            add(hf.steps[i].to);
            add(hf.steps[i].block);
        }
    const std::uint64_t* pawns = pieces_[make_piece(them, PAWN)];
    const std::uint64_t* pawn_from = ATTACKERS.pawn[them][k];
    mask.w[0] |= pawns[0] & pawn_from[0];
    mask.w[1] |= pawns[1] & pawn_from[1];
    return mask;
}

bool Position::king_attacked(Color c) const {
    return attacked_after<false>(king_[c], c, SQ_NONE, SQ_NONE);
}

template <Color by>
bool Position::is_attacked(Square s) const {
    // Rook, cannon, horse and pawn attacks are as for a king; add king, advisor, elephant steps.
    // The king-facing rule is not an "attack" on a square, so mask it out by checking kings by step.
    const int sr = rank_of(s), sf = file_of(s);
    const unsigned rank_occ = rank_all_[sr];
    const unsigned file_occ = file_all_[sf];
    for (unsigned b = LINES.rook[sf][rank_occ] & rank_occ; b; b &= b - 1)
        if (board_[sr * FILE_NB + std::countr_zero(b)] == make_piece(by, ROOK)) return true;
    for (unsigned b = LINES.rook[sr][file_occ] & file_occ; b; b &= b - 1)
        if (board_[std::countr_zero(b) * FILE_NB + sf] == make_piece(by, ROOK)) return true;
    for (unsigned b = LINES.cannon[sf][rank_occ]; b; b &= b - 1)
        if (board_[sr * FILE_NB + std::countr_zero(b)] == make_piece(by, CANNON)) return true;
    for (unsigned b = LINES.cannon[sr][file_occ]; b; b &= b - 1)
        if (board_[std::countr_zero(b) * FILE_NB + sf] == make_piece(by, CANNON)) return true;
    const auto* horses = pieces_[make_piece(by, HORSE)];
    const auto* horse_from = ATTACKERS.horse[s];
    if ((horses[0] & horse_from[0]) | (horses[1] & horse_from[1])) {
        const auto& hf = TABLES.horse_from[s];
        for (int i = 0; i < hf.count; ++i)
            if (board_[hf.steps[i].to] == make_piece(by, HORSE) && board_[hf.steps[i].block] == NO_PIECE)
                return true;
    }
    const auto* pawns = pieces_[make_piece(by, PAWN)];
    const auto* pawn_from = ATTACKERS.pawn[by][s];
    if ((pawns[0] & pawn_from[0]) | (pawns[1] & pawn_from[1])) return true;
    // Palace pieces: the same step tables work backwards because the steps are symmetric.
    auto any = [&](PieceType t, const std::uint64_t* from) {
        const auto* set = pieces_[make_piece(by, t)];
        return ((set[0] & from[0]) | (set[1] & from[1])) != 0;
    };
    if (in_palace(by, s) && (any(KING, ATTACKERS.king[s]) || any(ADVISOR, ATTACKERS.advisor[s]))) return true;
    if (any(ELEPHANT, ATTACKERS.elephant[s])) {
        const auto& el = TABLES.elephant[s];
        for (int i = 0; i < el.count; ++i)
            if (board_[el.steps[i].to] == make_piece(by, ELEPHANT) && board_[el.steps[i].block] == NO_PIECE)
                return true;
    }
    return false;
}

bool Position::gives_check(Move m) const {
    Position copy = *this;
    UndoInfo u;
    copy.do_move(m, u);
    return copy.in_check();
}

bool Position::gives_check_fast(Move m) const {
    auto test = [&](auto colour) {
        constexpr Color us = decltype(colour)::value;
        return may_give_check<us>(m) && attacked_after<true, true, ~us>(king_[~us], m.from(), m.to());
    };
    return side_ == RED ? test(std::integral_constant<Color, RED>{}) : test(std::integral_constant<Color, BLACK>{});
}

bool Position::is_legal(Move m) const {
    const Square from = m.from(), to = m.to();
    const Square k = type_of(board_[from]) == KING ? to : king_[side_];
    return !attacked_after<true>(k, side_, from, to);
}

bool Position::is_legal(Move m, bool side_in_check) const {
    const Square from = m.from(), to = m.to();
    if (side_in_check || type_of(board_[from]) == KING) return is_legal(m);
    const Square k = king_[side_];
    // The king is not in check: only a move from a point of its lines or legs, or to a point of
    // its lines, can expose it. (A finer filter, by the enemy pieces on those lines, saved less
    // than it cost: twenty-sixth session.)
    if ((RELATIONS[from][k] & (SAME_LINE | DIAGONAL_NEIGHBOUR)) | (RELATIONS[to][k] & SAME_LINE))
        return !attacked_after<true, true>(k, side_, from, to);
    return true;
}

template <Color us>
bool Position::may_give_check(Move m) const {
    const Square from = m.from(), to = m.to();
    const Square k = king_[~us];
    const std::uint8_t from_k = RELATIONS[from][k], to_k = RELATIONS[to][k];
    // Uncovered: the leg of one of our horses, or a point of a line of the king that another of
    // our rooks or cannons is on (the king facing the king would be no legal move).
    if (from_k & DIAGONAL_NEIGHBOUR) {
        if (any_in(pieces_[make_piece(us, HORSE)], ATTACKERS.horse[k])) return true;
    } else if (from_k & SAME_LINE) {
        const auto &r = pieces_[make_piece(us, ROOK)], &c = pieces_[make_piece(us, CANNON)];
        const std::uint64_t mover0 = from < 64 ? std::uint64_t(1) << from : 0;
        const std::uint64_t mover1 = from < 64 ? 0 : std::uint64_t(1) << (from - 64);
        if (any_in((r[0] | c[0]) & ~mover0, (r[1] | c[1]) & ~mover1, line_through(from, k))) return true;
    }
    const PieceType t = type_of(board_[from]);
    if (to_k & HORSE_STEP) return t == HORSE;
    if (!(to_k & SAME_LINE)) return false;
    // On a line of the king: a rook or cannon may attack it from there, a pawn next to it; any
    // piece may become the screen of one of our cannons on that line, by a move to an empty point.
    if (t == ROOK || t == CANNON) return true;
    if (t == PAWN && ((ATTACKERS.pawn[us][k][to >> 6] >> (to & 63)) & 1)) return true;
    return board_[to] == NO_PIECE && any_in(pieces_[make_piece(us, CANNON)], line_through(to, k));
}

template bool Position::is_attacked<RED>(Square) const;
template bool Position::is_attacked<BLACK>(Square) const;
template bool Position::may_give_check<RED>(Move) const;
template bool Position::may_give_check<BLACK>(Move) const;

}  // namespace xq
