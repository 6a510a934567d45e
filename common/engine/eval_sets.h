// The evaluation's attack bookkeeping (eval.cpp only): the pieces of a position and what they
// attack as 90-bit sets (bit = point), built from line lookups and step masks.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "eval.h"
#include "xiangqi/lines.h"
#include "xiangqi/tables.h"

namespace xq::engine::eval_sets {

using tables::TABLES;

constexpr int KING_VALUE_FOR_SEE = 3000;

// Attack bookkeeping for one evaluation, as 90-bit sets (bit = point): what each piece type
// of each side attacks, built from line lookups instead of walking rays point by point.
__extension__ using Bits = unsigned __int128;

constexpr Bits one_bit(int s) { return Bits(1) << s; }

// SWAR for baseline x86-64 (no popcnt instruction). The two halves are counted in 4-bit
// fields apart, then added (at most 8 per field) and finished together.
constexpr int popcount_swar(Bits b) {
    constexpr std::uint64_t m1 = 0x5555555555555555ULL, m2 = 0x3333333333333333ULL, m4 = 0x0F0F0F0F0F0F0F0FULL;
    std::uint64_t lo = std::uint64_t(b), hi = std::uint64_t(b >> 64);
    lo -= (lo >> 1) & m1;
    hi -= (hi >> 1) & m1;
    lo = (lo & m2) + ((lo >> 2) & m2);
    hi = (hi & m2) + ((hi >> 2) & m2);
    const std::uint64_t x = lo + hi;
    return int((((x & m4) + ((x >> 4) & m4)) * 0x0101010101010101ULL) >> 56);
}

// The number of points in a set: the popcnt instruction where the build targets a processor
// that has it (CMakeLists.txt, XQ_ARCH; 1.5-3% of `bench` against the SWAR count), else SWAR.
inline int popcount(Bits b) {
#ifdef __POPCNT__
    return std::popcount(std::uint64_t(b)) + std::popcount(std::uint64_t(b >> 64));
#else
    return popcount_swar(b);
#endif
}

using lines::LINES;

// The points of two lines' sets (a rank's 9 bits or a file's 10): one popcnt instruction where
// the build has it, else two lookups in the 10-bit count table.
inline int line_count(unsigned a, unsigned b) {
#ifdef __POPCNT__
    return std::popcount(a | (b << 10));
#else
    return LINES.pop[a] + LINES.pop[b];
#endif
}

// A file's reach (line bit r = rank r, from LINES) as a set of points of file f: two lookups,
// split by the river: ranks 0-4 of file f (points below 45, all in the low word) and ranks 5-9.
// (One table by the line's 10 bits, shifted to the file, took more instructions: a 128-bit
// shift by a variable count.)
struct FileHalves {
    std::array<std::array<std::uint64_t, 32>, FILE_NB> low{};
    std::array<std::array<Bits, 32>, FILE_NB> high{};
};
constexpr FileHalves build_file_halves() {
    FileHalves t{};
    for (int f = 0; f < FILE_NB; ++f)
        for (int v = 0; v < 32; ++v)
            for (int b = 0; b < 5; ++b)
                if ((v >> b) & 1) {
                    t.low[f][v] |= std::uint64_t(1) << (b * FILE_NB + f);
                    t.high[f][v] |= one_bit((b + 5) * FILE_NB + f);
                }
    return t;
}
inline constexpr FileHalves FILE_HALVES = build_file_halves();

// (tests/engine/eval_test.cpp checks every file and line value against the points set one by one.)
inline Bits file_set(unsigned v, int f) {
    return FILE_HALVES.high[f][v >> 5] | Bits(FILE_HALVES.low[f][v & 31]);
}

// The step pieces' targets as sets: king, advisor and pawn steps per point, and horse and
// elephant steps grouped by the leg or eye point that blocks them.
struct StepMasks {
    struct Blockable {
        std::int8_t block = -1;
        Bits targets = 0;
    };
    std::array<Bits, SQ_NB> point{};
    std::array<Bits, SQ_NB> king{};
    std::array<Bits, SQ_NB> advisor{};
    std::array<std::array<Bits, SQ_NB>, COLOR_NB> pawn{};
    std::array<std::array<Blockable, 4>, SQ_NB> horse{};
    std::array<std::array<Blockable, 4>, SQ_NB> elephant{};
    // The points from which a horse attacks this point, grouped by the leg point they need
    // empty (the diagonal neighbour of this point towards the horse).
    std::array<std::array<Blockable, 4>, SQ_NB> horse_to{};
    std::array<Bits, COLOR_NB> palace{};  // the nine palace points of each side
};

constexpr void add_blockable(std::array<StepMasks::Blockable, 4>& groups, int block, int to) {
    for (auto& g : groups) {
        if (g.block == block || g.block < 0) {
            g.block = std::int8_t(block);
            g.targets |= one_bit(to);
            return;
        }
    }
}

constexpr StepMasks build_step_masks() {
    StepMasks m{};
    for (int sq = 0; sq < SQ_NB; ++sq) {
        m.point[sq] = one_bit(sq);
        for (int i = 0; i < TABLES.king[sq].count; ++i) m.king[sq] |= one_bit(TABLES.king[sq].steps[i].to);
        for (int i = 0; i < TABLES.advisor[sq].count; ++i) m.advisor[sq] |= one_bit(TABLES.advisor[sq].steps[i].to);
        for (int c = 0; c < COLOR_NB; ++c)
            for (int i = 0; i < TABLES.pawn[c][sq].count; ++i) m.pawn[c][sq] |= one_bit(TABLES.pawn[c][sq].steps[i].to);
        for (int i = 0; i < TABLES.horse[sq].count; ++i)
            add_blockable(m.horse[sq], TABLES.horse[sq].steps[i].block, TABLES.horse[sq].steps[i].to);
        for (int i = 0; i < TABLES.elephant[sq].count; ++i)
            add_blockable(m.elephant[sq], TABLES.elephant[sq].steps[i].block, TABLES.elephant[sq].steps[i].to);
        for (int i = 0; i < TABLES.horse[sq].count; ++i) {
            const int to = TABLES.horse[sq].steps[i].to;
            const int df = to % FILE_NB - sq % FILE_NB, dr = to / FILE_NB - sq / FILE_NB;
            const int leg = (sq / FILE_NB + (dr > 0 ? 1 : -1)) * FILE_NB + sq % FILE_NB + (df > 0 ? 1 : -1);
            add_blockable(m.horse_to[sq], leg, to);
        }
    }
    for (int r = 0; r < 3; ++r)
        for (int f = 3; f <= 5; ++f) {
            m.palace[RED] |= one_bit(r * FILE_NB + f);
            m.palace[BLACK] |= one_bit((9 - r) * FILE_NB + f);
        }
    return m;
}

constexpr StepMasks STEPS = build_step_masks();

inline Bits bit(int s) { return STEPS.point[s]; }

// Pawns as sets: where colour c's pawns on the points `p` attack (forward one point, and
// sideways once across the river), computed for all of them at once.
struct PawnMasks {
    std::array<Bits, COLOR_NB> crossed{};    // the points across the river
    std::array<Bits, COLOR_NB> forward{};    // the points with a point ahead
    std::array<Bits, COLOR_NB> last_rank{};  // the enemy's back rank
    std::array<Bits, COLOR_NB> palace_attack{};  // the points from which a pawn hits the enemy palace
    Bits not_file_a = 0, not_file_i = 0;
};

constexpr PawnMasks build_pawn_masks() {
    PawnMasks m{};
    for (int sq = 0; sq < SQ_NB; ++sq) {
        for (Color c : {RED, BLACK}) {
            if (crossed_river(c, Square(sq))) m.crossed[c] |= one_bit(sq);
            if (relative_rank(c, Square(sq)) < 9) m.forward[c] |= one_bit(sq);
            else m.last_rank[c] |= one_bit(sq);
            if (STEPS.pawn[c][sq] & STEPS.palace[~c]) m.palace_attack[c] |= one_bit(sq);
        }
        if (file_of(Square(sq)) != 0) m.not_file_a |= one_bit(sq);
        if (file_of(Square(sq)) != FILE_NB - 1) m.not_file_i |= one_bit(sq);
    }
    return m;
}

inline constexpr PawnMasks PAWNS = build_pawn_masks();

template <Color C>
constexpr Bits pawn_attacks(Bits p) {
    const Bits fwd = p & PAWNS.forward[C];
    const Bits crossed = p & PAWNS.crossed[C];
    const Bits side = ((crossed & PAWNS.not_file_i) << 1) | ((crossed & PAWNS.not_file_a) >> 1);
    return (C == RED ? fwd << FILE_NB : fwd >> FILE_NB) | side;
}

// The sets agree with the step tables on every point.
constexpr bool pawn_sets_match_steps() {
    for (int sq = 0; sq < SQ_NB; ++sq)
        if (pawn_attacks<RED>(one_bit(sq)) != STEPS.pawn[RED][sq] || pawn_attacks<BLACK>(one_bit(sq)) != STEPS.pawn[BLACK][sq])
            return false;
    return true;
}
static_assert(pawn_sets_match_steps());

// For a piece at index p of a line with occupancy occ: the points with exactly one piece
// strictly between them and p (a cannon there attacks p; the point itself may be occupied).
constexpr std::array<std::array<std::uint16_t, 1024>, 10> build_cannon_to() {
    std::array<std::array<std::uint16_t, 1024>, 10> t{};
    for (int p = 0; p < 10; ++p)
        for (int occ = 0; occ < 1024; ++occ)
            for (int dir : {1, -1}) {
                int i = p + dir;
                while (i >= 0 && i < 10 && !((occ >> i) & 1)) i += dir;
                for (i += dir; i >= 0 && i < 10; i += dir) {
                    t[p][occ] = std::uint16_t(t[p][occ] | (1 << i));
                    if ((occ >> i) & 1) break;
                }
            }
    return t;
}

inline constexpr std::array<std::array<std::uint16_t, 1024>, 10> CANNON_TO = build_cannon_to();

// The targets of the steps whose leg (horse) or eye (elephant) point is empty, looked up by
// the occupancy of the four blocking points, without a branch on each of them (one branch a
// leg cost 1-2.5% of the search's time in mispredictions, twenty-third session). A horse's
// legs are its orthogonal neighbours, an elephant's eyes its diagonal ones, and so are the legs
// of the horses that attack a point (horse_to). The occupancy is read shifted up by BLOCK_PAD
// points, so that the neighbours of every point have a place: `Pieces::padded` once per
// evaluation, then `orthogonal_index` or `diagonal_index` per piece.
constexpr int BLOCK_PAD = 10;

// Bit i of the index: the neighbour at OFFSETS[i] is occupied.
constexpr int ORTHOGONAL_OFFSETS[4] = {-FILE_NB, -1, 1, FILE_NB};
constexpr int DIAGONAL_OFFSETS[4] = {-FILE_NB - 1, -FILE_NB + 1, FILE_NB - 1, FILE_NB + 1};

inline Bits padded_occupancy(Bits occ) { return occ << BLOCK_PAD; }

inline unsigned orthogonal_index(Bits padded, int sq) {
    const auto x = std::uint32_t(padded >> sq);  // bit BLOCK_PAD + offset: the neighbour
    return ((x >> 1) & 1u) | ((x >> 8) & 2u) | ((x >> 9) & 4u) | ((x >> 16) & 8u);
}

inline unsigned diagonal_index(Bits padded, int sq) {
    const auto x = std::uint32_t(padded >> sq);
    return (x & 1u) | ((x >> 1) & 2u) | ((x >> 16) & 4u) | ((x >> 17) & 8u);
}

using BlockedTable = std::array<std::array<Bits, 16>, SQ_NB>;

// For each point and each occupancy index, the union of the groups whose blocking point is
// empty. A neighbour off the board (or wrapped to the other edge) blocks no group of its point.
constexpr BlockedTable build_blocked_table(const std::array<std::array<StepMasks::Blockable, 4>, SQ_NB>& groups,
                                           const int (&offsets)[4]) {
    BlockedTable t{};
    for (int sq = 0; sq < SQ_NB; ++sq)
        for (unsigned idx = 0; idx < 16; ++idx)
            for (const auto& g : groups[sq]) {
                if (g.block < 0) break;
                int i = 0;
                while (i < 4 && sq + offsets[i] != g.block) ++i;
                if (i == 4) throw "a blocking point that is no neighbour";  // not a constant expression
                if (!((idx >> i) & 1u)) t[sq][idx] |= g.targets;
            }
    return t;
}

struct BlockedTables {
    BlockedTable horse = build_blocked_table(STEPS.horse, ORTHOGONAL_OFFSETS);
    BlockedTable elephant = build_blocked_table(STEPS.elephant, DIAGONAL_OFFSETS);
    BlockedTable horse_to = build_blocked_table(STEPS.horse_to, DIAGONAL_OFFSETS);
};

inline constexpr BlockedTables BLOCKED{};

// The pieces of one position by colour and type as sets, and their counts, read from the
// occupancy sets the position keeps up to date move by move.
// Every element is written by the constructor (no zeroing first: the evaluation runs at most
// nodes of the search).
struct Pieces {
    const Position& pos;
    std::array<std::array<std::uint8_t, PIECE_TYPE_NB>, COLOR_NB> count;
    std::array<Bits, COLOR_NB> occ;
    Bits padded;  // both colours' occupancy shifted up by BLOCK_PAD (orthogonal_index, diagonal_index)

    explicit Pieces(const Position& p) : pos(p) {
        for (Color c : {RED, BLACK}) {
            count[c][NO_PIECE_TYPE] = 0;
            for (int t = KING; t <= PAWN; ++t) count[c][t] = std::uint8_t(pos.count(make_piece(c, PieceType(t))));
            occ[c] = Bits(pos.occupied(c, 0)) | (Bits(pos.occupied(c, 1)) << 64);
        }
        padded = padded_occupancy(occ[RED] | occ[BLACK]);
    }
    // The points of colour c's pieces of type t, read from the position (not copied: the
    // evaluation needs only a few of these sets).
    Bits set(Color c, PieceType t) const {
        const Piece p = make_piece(c, t);
        return Bits(pos.pieces(p, 0)) | (Bits(pos.pieces(p, 1)) << 64);
    }
    // Calls f(point) for each piece of colour c and type t, in ascending order.
    template <class F>
    void each(Color c, PieceType t, F&& f) const {
        const Piece pc = make_piece(c, t);
        for (int half = 0; half < 2; ++half) each_in(pc, half, f);
    }
    // The same for the pieces in one half of the sets (points 0-63 or 64-89) only.
    template <class F>
    void each_in(Piece pc, int half, F&& f) const {
        for (std::uint64_t b = pos.pieces(pc, half); b; b &= b - 1) f(half * 64 + std::countr_zero(b));
    }
};

// Filled by scan_pieces (eval.cpp), which writes every element: no zeroing first.
struct AttackInfo {
    std::array<std::array<Bits, PIECE_TYPE_NB>, COLOR_NB> by_type;
    std::array<Bits, COLOR_NB> all;
    std::array<Bits, COLOR_NB> cannon_quiet;  // empty points the cannons can move to
    std::array<PackedScore, COLOR_NB> mobility;
    std::array<int, COLOR_NB> palace_attackers;  // pieces hitting the enemy palace

    // Value of the cheapest piece of colour c attacking s (value_for_exchange); s attacked.
    int min_value(Color c, int s) const {
        const auto& b = by_type[c];
        const Bits m = bit(s);
        if (b[PAWN] & m) return PIECE_VALUE[PAWN];
        if ((b[ADVISOR] | b[ELEPHANT]) & m) return PIECE_VALUE[ADVISOR];
        if (b[HORSE] & m) return PIECE_VALUE[HORSE];
        if (b[CANNON] & m) return PIECE_VALUE[CANNON];
        if (b[ROOK] & m) return PIECE_VALUE[ROOK];
        return KING_VALUE_FOR_SEE;
    }
};
static_assert(PIECE_VALUE[ADVISOR] == PIECE_VALUE[ELEPHANT] && PIECE_VALUE[PAWN] < PIECE_VALUE[ADVISOR] &&
                  PIECE_VALUE[ADVISOR] < PIECE_VALUE[HORSE] && PIECE_VALUE[HORSE] < PIECE_VALUE[CANNON] &&
                  PIECE_VALUE[CANNON] < PIECE_VALUE[ROOK] && PIECE_VALUE[ROOK] < KING_VALUE_FOR_SEE,
              "min_value tests the attackers from the cheapest up");

}  // namespace xq::engine::eval_sets
