#include "eval.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <sstream>
#include <type_traits>

#include "eval_king.h"
#include "eval_sets.h"
#include "eval_threats.h"
#include "xiangqi/lines.h"
#include "xiangqi/tables.h"

namespace xq::engine {

namespace {

using tables::TABLES;
using namespace eval_sets;

// ---- Weights (centipawns). TUNED-WEIGHTS-BEGIN (xiangqi-tune fit --write rewrites this block)
// Fitted by `xiangqi-tune fit part0_fsf5k.txt part1_fsf5k.txt --iterations 400 --l2 1e-7 --lambda 0.75 --params material[HORSE],material[ROOK],material[CANNON],horse_trapped,defended_piece,palace_attack,exposed_king_unit,empty_headed_cannon,central_cannon,rook_on_king_file,pst_rank[HORSE],pst_rank[ROOK],pst_rank[CANNON],pst_file[HORSE],pst_file[ROOK],pst_file[CANNON],king_attackers,king_safe_steps,safe_check`:
// 98581 training positions, 10925 held out; K 0.00223228;
// mean squared error training 0.018768 -> 0.0170936, held out 0.0205748 -> 0.0193266 (against the blend; against the results 0.123005 -> 0.126000, score K 0.002990);
// then the threat terms from zero with all others held (fifteenth session), the same command with
// `--params threat_by_pawn,threat_by_minor,threat_by_rook,hanging,threat_on_move,multi_threat`:
// K 0.00213651; training 0.0170483 -> 0.0163005, held out 0.0192224 -> 0.0184257 (against the
// results 0.125661 -> 0.125464);
// then the per-point piece-square terms of kings, advisors, elephants and pawns from zero with
// all others held (fifteenth session), the same data and `--l2 1e-9 --params pst_square[KING],
// pst_square[ADVISOR],pst_square[ELEPHANT],pst_square[PAWN]`: K 0.00216335; training 0.0162969 ->
// 0.0152158, held out 0.0184369 -> 0.0165083 (against the results 0.125547 -> 0.120859);
// started from the weights this block held before (their history: docs/engine.md, "The evaluation
// tuned by data").
constexpr EvalWeights tuned_weights() {
    EvalWeights w{};
    w.material[ADVISOR] = {200, 230};
    w.material[ELEPHANT] = {200, 230};
    w.material[HORSE] = {381, 452};
    w.material[ROOK] = {965, 1032};
    w.material[CANNON] = {489, 437};
    w.mobility[HORSE] = {12, 16};
    w.mobility[ROOK] = {12, 19};
    w.mobility[CANNON] = {6, 6};
    w.horse_trapped = {-37, -40};
    w.defended_piece = {33, -18};
    w.palace_attack = {7, 7};
    w.exposed_king_unit = {13, -29};
    w.empty_headed_cannon = {97, 26};
    w.central_cannon = {43, 17};
    w.rook_on_king_file = {18, 15};
    w.king_attackers[1] = {-9, -11};
    w.king_attackers[2] = {20, 16};
    w.king_attackers[3] = {90, 25};
    w.king_attackers[4] = {180, 45};
    w.king_attackers[5] = {300, 75};
    w.king_safe_steps[0] = {28, 23};
    w.king_safe_steps[1] = {22, 4};
    w.king_safe_steps[2] = {14, 15};
    w.safe_check[HORSE] = {62, 19};
    w.safe_check[ROOK] = {81, 19};
    w.safe_check[CANNON] = {67, 14};
    w.pst_rank[HORSE][0] = {-21, -5};
    w.pst_rank[HORSE][1] = {-34, -11};
    w.pst_rank[HORSE][2] = {-4, -10};
    w.pst_rank[HORSE][3] = {-3, -6};
    w.pst_rank[HORSE][4] = {6, -6};
    w.pst_rank[HORSE][5] = {9, 4};
    w.pst_rank[HORSE][6] = {1, 6};
    w.pst_rank[HORSE][7] = {3, 5};
    w.pst_rank[HORSE][8] = {3, 3};
    w.pst_rank[HORSE][9] = {0, 1};
    w.pst_rank[ROOK][0] = {17, 6};
    w.pst_rank[ROOK][1] = {-13, -2};
    w.pst_rank[ROOK][2] = {-7, -2};
    w.pst_rank[ROOK][3] = {10, 0};
    w.pst_rank[ROOK][4] = {-4, 0};
    w.pst_rank[ROOK][5] = {-2, 1};
    w.pst_rank[ROOK][6] = {10, 5};
    w.pst_rank[ROOK][7] = {-8, -2};
    w.pst_rank[ROOK][8] = {3, 1};
    w.pst_rank[ROOK][9] = {7, 5};
    w.pst_rank[CANNON][0] = {-6, -3};
    w.pst_rank[CANNON][1] = {18, 0};
    w.pst_rank[CANNON][2] = {27, 5};
    w.pst_rank[CANNON][3] = {3, 0};
    w.pst_rank[CANNON][4] = {-7, 2};
    w.pst_rank[CANNON][5] = {4, 2};
    w.pst_rank[CANNON][6] = {8, 4};
    w.pst_rank[CANNON][7] = {-8, -1};
    w.pst_rank[CANNON][8] = {-5, 1};
    w.pst_rank[CANNON][9] = {5, 7};
    w.pst_file[HORSE][0] = {-22, -9};
    w.pst_file[HORSE][1] = {12, -4};
    w.pst_file[HORSE][2] = {-7, -3};
    w.pst_file[HORSE][3] = {-17, -2};
    w.pst_file[HORSE][4] = {-6, -1};
    w.pst_file[ROOK][0] = {0, 6};
    w.pst_file[ROOK][1] = {5, 2};
    w.pst_file[ROOK][2] = {8, 3};
    w.pst_file[ROOK][3] = {-5, -3};
    w.pst_file[ROOK][4] = {7, 5};
    w.pst_file[CANNON][0] = {16, 5};
    w.pst_file[CANNON][1] = {7, 0};
    w.pst_file[CANNON][2] = {11, 1};
    w.pst_file[CANNON][3] = {-9, 5};
    w.pst_file[CANNON][4] = {13, 5};
    w.pst_square[KING][0][0] = {81, 12};
    w.pst_square[KING][0][1] = {72, -13};
    w.pst_square[KING][1][0] = {-29, 3};
    w.pst_square[KING][1][1] = {-62, 11};
    w.pst_square[KING][2][0] = {-52, 10};
    w.pst_square[KING][2][1] = {-23, -22};
    w.pst_square[ADVISOR][0][1] = {62, -29};
    w.pst_square[ADVISOR][1][0] = {118, -13};
    w.pst_square[ADVISOR][2][1] = {-5, -37};
    w.pst_square[ELEPHANT][0][2] = {-19, -52};
    w.pst_square[ELEPHANT][2][0] = {1, -45};
    w.pst_square[ELEPHANT][2][4] = {-45, -72};
    w.pst_square[ELEPHANT][4][2] = {-60, -46};
    w.pst_square[PAWN][3][0] = {43, 27};
    w.pst_square[PAWN][3][2] = {5, 27};
    w.pst_square[PAWN][3][4] = {-33, 13};
    w.pst_square[PAWN][4][0] = {17, 19};
    w.pst_square[PAWN][4][2] = {24, 36};
    w.pst_square[PAWN][4][4] = {-20, -5};
    w.pst_square[PAWN][5][0] = {45, -9};
    w.pst_square[PAWN][5][1] = {59, 9};
    w.pst_square[PAWN][5][2] = {38, 24};
    w.pst_square[PAWN][5][3] = {54, 15};
    w.pst_square[PAWN][5][4] = {14, 5};
    w.pst_square[PAWN][6][0] = {21, 7};
    w.pst_square[PAWN][6][1] = {53, 9};
    w.pst_square[PAWN][6][2] = {23, 4};
    w.pst_square[PAWN][6][3] = {25, -14};
    w.pst_square[PAWN][6][4] = {3, -4};
    w.pst_square[PAWN][7][0] = {32, 5};
    w.pst_square[PAWN][7][1] = {55, 41};
    w.pst_square[PAWN][7][2] = {-31, 7};
    w.pst_square[PAWN][7][3] = {12, -17};
    w.pst_square[PAWN][7][4] = {-19, 12};
    w.pst_square[PAWN][8][0] = {7, -5};
    w.pst_square[PAWN][8][1] = {55, 5};
    w.pst_square[PAWN][8][2] = {30, 11};
    w.pst_square[PAWN][8][3] = {-2, 48};
    w.pst_square[PAWN][8][4] = {-9, -10};
    w.pst_square[PAWN][9][0] = {0, -8};
    w.pst_square[PAWN][9][1] = {24, 7};
    w.pst_square[PAWN][9][2] = {7, -12};
    w.pst_square[PAWN][9][3] = {-3, 19};
    w.pst_square[PAWN][9][4] = {-20, -29};
    w.threat_by_pawn = {4, 2};
    w.threat_by_minor[ADVISOR] = {1, 1};
    w.threat_by_minor[ELEPHANT] = {0, 1};
    w.threat_by_minor[HORSE] = {-1, 0};
    w.threat_by_minor[ROOK] = {-7, -2};
    w.threat_by_minor[CANNON] = {-1, 0};
    w.threat_by_minor[PAWN] = {5, 0};
    w.threat_by_rook[ADVISOR] = {2, 1};
    w.threat_by_rook[ELEPHANT] = {-1, 0};
    w.threat_by_rook[HORSE] = {-2, -1};
    w.threat_by_rook[ROOK] = {-2, -1};
    w.threat_by_rook[CANNON] = {-1, 0};
    w.threat_by_rook[PAWN] = {2, 0};
    w.hanging = {-2, -1};
    w.threat_on_move = {49, 16};
    w.multi_threat = {-17, -5};
    w.en_prise_to_move[0] = {-125, -125};
    w.en_prise_to_move[1] = {-500, -500};
    w.en_prise_waiting[0] = {-100, -100};
    return w;
}
// TUNED-WEIGHTS-END
constexpr EvalWeights W = tuned_weights();
// The same weights packed (eval_weights.h), for the sums of the evaluation.
constexpr PackedWeights PW = map_table<PackedScore>(W, [](Score s) { return PackedScore(s); });
constexpr int TEMPO = EVAL_TEMPO;
constexpr int PHASE_MAX = EVAL_PHASE_MAX;  // 2 per rook, 1 per horse or cannon at the start

// Piece-square tables written as formulas over (relative rank, file); Red's point of view.
constexpr Score pst_value(PieceType t, int r, int f) {
    const int cd = f > 4 ? f - 4 : 4 - f;  // distance from the central file
    switch (t) {
    case PAWN: {
        if (r < 5) {
            // Own side of the river: the central pawn and the third/seventh-file pawns guard.
            const int mg = (r == 4 ? 10 : 0) + (f == 4 ? 8 : 0);
            return {90 + mg, 100 + mg / 2};
        }
        // Crossed: strongest near the enemy palace (ranks 6-8, files d-f), weak on the last rank.
        constexpr int rank_mg[10] = {0, 0, 0, 0, 0, 150, 175, 190, 185, 120};
        constexpr int rank_eg[10] = {0, 0, 0, 0, 0, 170, 200, 215, 200, 130};
        const int file_pen = cd >= 3 ? 25 : cd * 5;
        return {rank_mg[r] - file_pen, rank_eg[r] - file_pen};
    }
    case HORSE: {
        int mg = 12 - 6 * cd;
        if (f == 0 || f == 8) mg -= 18;
        constexpr int adv[10] = {-10, 0, 8, 14, 20, 26, 34, 38, 26, 6};
        mg += adv[r];
        // Horse close to the enemy palace ("horse at the palace corner") is a real threat.
        if (r >= 6 && r <= 8 && f >= 2 && f <= 6) mg += 16;
        if (r == 2 && f == 4) mg -= 10;  // in front of the own king: blocks and gets pinned
        return {mg, mg / 2 + 6 - 5 * cd};
    }
    case ROOK: {
        constexpr int adv[10] = {-6, 4, 2, 6, 14, 14, 16, 24, 20, 8};
        int mg = adv[r];
        if (f == 3 || f == 5) mg += 10;  // rib files
        if (f == 4) mg += 4;
        if ((f == 0 || f == 8) && r == 0) mg -= 12;  // undeveloped corner rook
        return {mg, adv[r] / 2 + (4 - cd) * 2};
    }
    case CANNON: {
        int mg = 0;
        if (f == 4) mg += 22;
        if (r <= 2) mg += 4;
        if (r == 9 && (f == 3 || f == 5)) mg += 8;  // bottom cannon
        if (r >= 5 && r <= 8) mg += 6 - 3 * cd;
        return {mg, 4 - 2 * cd};
    }
    case KING: {
        constexpr int rank_mg[3] = {0, -16, -40};
        constexpr int rank_eg[3] = {0, -4, -14};
        const int rr = r > 2 ? 2 : r;
        return {rank_mg[rr] - (f != 4 ? 8 : 0), rank_eg[rr] + (f != 4 ? -2 : 0)};
    }
    case ADVISOR:
        if (r == 1 && f == 4) return {10, 6};
        if (r == 0) return {4, 2};
        return {-6, -4};
    case ELEPHANT:
        if (r == 2 && f == 4) return {14, 8};
        if (r == 0) return {4, 2};
        if (r == 2) return {-6, -4};  // edge elephant
        return {0, 0};
    default: return {0, 0};
    }
}

struct Pst {
    std::array<std::array<PackedScore, SQ_NB>, PIECE_NB> v{};
};

constexpr Pst build_pst() {
    Pst p{};
    for (int c = 0; c < COLOR_NB; ++c)
        for (int t = KING; t <= PAWN; ++t)
            for (int sq = 0; sq < SQ_NB; ++sq) {
                const int r = c == RED ? sq / 9 : 9 - sq / 9;
                const int f = sq % 9;
                const int cd = f > 4 ? f - 4 : 4 - f;
                const Score base = pst_value(PieceType(t), r, f);
                p.v[make_piece(Color(c), PieceType(t))][sq] =
                    PackedScore(base + W.pst_rank[t][r] + W.pst_file[t][cd] + W.pst_square[t][r][cd]);
            }
    return p;
}

constexpr Pst PST = build_pst();

// Material and piece-square value of each piece on each point, Red's counted up and Black's
// down: the part of the evaluation the search keeps move by move (psq_of, psq_delta).
constexpr Pst build_psq() {
    Pst p{};
    for (int c = 0; c < COLOR_NB; ++c)
        for (int t = KING; t <= PAWN; ++t) {
            const Piece pc = make_piece(Color(c), PieceType(t));
            // The pawns' and the king's material is in their piece-square values.
            const PackedScore material = t >= ADVISOR && t <= CANNON ? PW.material[t] : PackedScore();
            for (int sq = 0; sq < SQ_NB; ++sq) {
                const PackedScore v = PST.v[pc][sq] + material;
                p.v[pc][sq] = c == RED ? v : PackedScore() - v;
            }
        }
    return p;
}

// The material and piece-square values of colour c's pieces (eval_trace prints them apart).
PackedScore material_of(const Position& pos, Color c) {
    PackedScore s;
    for (int t = ADVISOR; t <= CANNON; ++t) s += PW.material[t] * pos.count(c, PieceType(t));
    return s;
}
PackedScore pst_of(const Position& pos, Color c) {
    PackedScore s;
    pos.for_each_piece(c, [&](Square sq) { s += PST.v[pos.piece_on(sq)][sq]; });
    return s;
}

}  // namespace

constexpr std::array<std::array<PackedScore, SQ_NB>, PIECE_NB> PSQ = build_psq().v;

PackedScore psq_of(const Position& pos) {
    PackedScore s;
    for (Color c : {RED, BLACK}) pos.for_each_piece(c, [&](Square sq) { s += PSQ[pos.piece_on(sq)][sq]; });
    return s;
}

namespace {

struct Terms {
    PackedScore psq;  // material and piece-square values, Red minus Black (psq_of)
    PackedScore mobility[COLOR_NB];
    PackedScore relations[COLOR_NB];
    PackedScore king[COLOR_NB];
    PackedScore threats[COLOR_NB];
    int threat[COLOR_NB] = {0, 0};  // pieces en prise (side-to-move dependent, tapered apart)
    int phase = 0;
    DrawMaterial draw{};
};

void trace_pst(Color c, PieceType ty, int sq, EvalTrace* tr) {
    const int sign = c == RED ? 1 : -1;
    const int r = c == RED ? sq / 9 : 9 - sq / 9, f = sq % 9, cd = f > 4 ? f - 4 : 4 - f;
    const Score base = pst_value(ty, r, f);
    tr->fixed_mg += sign * base.mg;
    tr->fixed_eg += sign * base.eg;
    tr->counts.pst_rank[ty][r] += sign;
    tr->counts.pst_file[ty][cd] += sign;
    tr->counts.pst_square[ty][r][cd] += sign;
}

// Calls f once for each colour, the colour a compile-time constant (`decltype(colour)::value`):
// each colour's code is compiled apart, with its pieces' indices, its palace and its
// directions as constants (the evaluation took a fifth fewer instructions so: a run-time loop
// over the colours computed them again in each piece loop).
template <class F>
[[gnu::always_inline]] inline void for_each_colour(F&& f) {
    f(std::integral_constant<Color, RED>{});
    f(std::integral_constant<Color, BLACK>{});
}

// One pass over the pieces of both sides: attack sets (cannon attacks over exactly one screen,
// horse legs, elephant eyes), mobility (pseudo-legal moves of horses, rooks and cannons), the
// horses' and pawns' share of the attacking force against the enemy palace (force[c] comes in
// with the rooks' and cannons' share) and pawns on the last rank. Their material and
// piece-square values are kept by the search (psq_of) and only traced here.
template <bool TRACE>
void scan_pieces(const Position& pos, const Pieces& pc, AttackInfo& ai, Terms& t, int* force, EvalTrace* tr) {
    for_each_colour([&](auto colour) {
        constexpr Color c = decltype(colour)::value;
        // Accumulated in registers, stored once at the end (no zeroing of the array first).
        Bits king = 0, advisor = 0, elephant = 0, horse = 0, rook = 0, cannon = 0, pawn = 0, cannon_quiet = 0;
        int horse_moves = 0, rook_moves = 0, cannon_moves = 0, trapped = 0, attackers = 0;
        // The sums too: a store into `t` or `force` inside the loops (the last-rank count is a
        // byte, which may alias anything) would make the compiler reload what it had read.
        int frc = force[c], last_rank = 0;
        const Bits their_palace = STEPS.palace[~c];
        auto visit_one = [&](PieceType ty, int sq, auto&& f) {
            if constexpr (TRACE) trace_pst(c, ty, sq, tr);
            f(sq);
        };
        auto visit = [&](PieceType ty, auto&& f) { pc.each(c, ty, [&](int sq) { visit_one(ty, sq, f); }); };
        // Only the half of the sets where a piece can stand (FEN validation keeps kings,
        // advisors and elephants on their points; EvalSets.PalacePiecesStandInTheHalfTheScanReads):
        // Red's palace and half of the board are points 0-44, Black's palace 66-86.
        const int palace_half = c == RED ? 0 : 1;
        auto visit_half = [&](PieceType ty, int half, auto&& f) {
            pc.each_in(make_piece(c, ty), half, [&](int sq) { visit_one(ty, sq, f); });
        };
        // King and advisor steps never leave their palace.
        visit_one(KING, pos.king_square(c), [&](int sq) { king = STEPS.king[sq]; });
        visit_half(ADVISOR, palace_half, [&](int sq) { advisor |= STEPS.advisor[sq]; });
        auto elephant_at = [&](int sq) { elephant |= BLOCKED.elephant[sq][diagonal_index(pc.padded, sq)]; };
        if (c == RED) visit_half(ELEPHANT, 0, elephant_at);
        else visit(ELEPHANT, elephant_at);  // Black's elephants stand on points 47-87
        visit(HORSE, [&](int sq) {
            const Bits att = BLOCKED.horse[sq][orthogonal_index(pc.padded, sq)];
            horse |= att;
            attackers += (att & their_palace) != 0;
            const int n = popcount(att & ~pc.occ[c]);
            horse_moves += n;
            if (!n) ++trapped;
            frc += crossed_river(c, Square(sq)) ? 3 : 1;
        });
        // Pawns as one set: their attacks and counts with set operations (a loop only for
        // the trace of their piece-square values).
        if constexpr (TRACE) visit(PAWN, [](int) {});
        const Bits pawns = pc.set(c, PAWN);
        pawn = c == RED ? pawn_attacks<RED>(pawns) : pawn_attacks<BLACK>(pawns);
        attackers += popcount(pawns & PAWNS.palace_attack[c]);
        frc += popcount(pawns & PAWNS.crossed[c]);
        last_rank = popcount(pawns & PAWNS.last_rank[c]);
        // Rooks and cannons in two visits, each compiled for its own type (one loop over both
        // types tested the type at run time and kept the cannons' values in registers for the
        // rooks too).
        auto slider = [&](auto type) {
            constexpr PieceType ty = decltype(type)::value;
            visit(ty, [&](int sq) {
                const int f = file_of(Square(sq)), r = rank_of(Square(sq));
                const int rs = r * FILE_NB;
                const unsigned rank_own = pos.rank_occupancy(c, r), file_own = pos.file_occupancy(c, f);
                const unsigned rank_occ = pos.rank_occupancy(r), file_occ = pos.file_occupancy(f);
                const unsigned rank_reach = LINES.rook[f][rank_occ] & 511u, file_reach = LINES.rook[r][file_occ];
                if constexpr (ty == ROOK) {
                    rook_moves += line_count(rank_reach & ~rank_own, file_reach & ~file_own);
                    const Bits att = (Bits(rank_reach) << rs) | file_set(file_reach, f);
                    rook |= att;
                    attackers += (att & their_palace) != 0;
                } else {
                    const unsigned rank_att = LINES.cannon[f][rank_occ] & 511u, file_att = LINES.cannon[r][file_occ];
                    cannon_moves += line_count(rank_reach & ~rank_occ, file_reach & ~file_occ) +
                                    line_count(rank_att & ~rank_own, file_att & ~file_own);
                    const Bits att = (Bits(rank_att) << rs) | file_set(file_att, f);
                    cannon |= att;
                    attackers += (att & their_palace) != 0;
                    cannon_quiet |= (Bits(rank_reach & ~rank_occ) << rs) | file_set(file_reach & ~file_occ, f);
                }
            });
        };
        slider(std::integral_constant<PieceType, ROOK>{});
        slider(std::integral_constant<PieceType, CANNON>{});
        force[c] = frc;
        t.draw.last_rank_pawns[c] = std::uint8_t(t.draw.last_rank_pawns[c] + last_rank);
        ai.mobility[c] = PW.mobility[HORSE] * horse_moves + PW.mobility[ROOK] * rook_moves +
                         PW.mobility[CANNON] * cannon_moves + PW.horse_trapped * trapped;
        if constexpr (TRACE) {
            const int sign = c == RED ? 1 : -1;
            tr->counts.mobility[HORSE] += sign * horse_moves;
            tr->counts.mobility[ROOK] += sign * rook_moves;
            tr->counts.mobility[CANNON] += sign * cannon_moves;
            tr->counts.horse_trapped += sign * trapped;
        }
        ai.by_type[c] = {0, king, advisor, elephant, horse, rook, cannon, pawn};
        ai.cannon_quiet[c] = cannon_quiet;
        ai.palace_attackers[c] = attackers;
        ai.all[c] = king | advisor | elephant | horse | rook | cannon | pawn;
    });
}

template <bool TRACE>
void compute(const Position& pos, PackedScore psq, Terms& t, EvalTrace* tr) {
    t.psq = psq;
    const Pieces pc(pos);
    int force[COLOR_NB];  // attacking force against the enemy palace
    for (Color c : {RED, BLACK}) force[c] = 3 * pc.count[c][ROOK] + 2 * pc.count[c][CANNON];
    AttackInfo ai;
    scan_pieces<TRACE>(pos, pc, ai, t, force, tr);
    const Color stm = pos.side_to_move();
    int worst[COLOR_NB][2] = {{0, 0}, {0, 0}};  // two largest expected losses per colour
    ThreatCounts tc[COLOR_NB];                    // threats by each colour (eval_threats.h)
    for_each_colour([&](auto colour) {
        constexpr Color c = decltype(colour)::value;
        if constexpr (TRACE)
            for (int ty = ADVISOR; ty <= CANNON; ++ty) tr->counts.material[ty] += (c == RED ? 1 : -1) * pc.count[c][ty];
        // Advisors, elephants, horses, rooks and cannons: all but the king and the pawns.
        const Bits pawns = pc.set(c, PAWN);
        const Bits officers = pc.occ[c] & ~(pawns | pc.set(c, KING));
        const int defended = popcount(officers & ai.all[c]);
        t.relations[c] += PW.defended_piece * defended;
        if constexpr (TRACE) tr->counts.defended_piece += (c == RED ? 1 : -1) * defended;
        // Pieces the opponent attacks: the expected loss is the piece if undefended, else what
        // the exchange with its cheapest attacker costs.
        const Bits hit = (officers | pawns) & ai.all[~c];
        for (int half = 0; half < 2; ++half)
            for (std::uint64_t b = std::uint64_t(hit >> (64 * half)); b; b &= b - 1) {
                const int sq = 64 * half + std::countr_zero(b);
                const PieceType ty = type_of(pos.piece_on(Square(sq)));
                int value = PIECE_VALUE[ty];
                if (ty == PAWN && crossed_river(c, Square(sq))) value = 150;
                int loss = 0;
                const bool undefended = !(ai.all[c] & bit(sq));
                tc[~c].add(ai.by_type[~c], ty, bit(sq), undefended);
                if (undefended) loss = value;
                else if (const int least = ai.min_value(~c, sq); least < value) loss = value - least;
                if (loss > worst[c][0]) {
                    worst[c][1] = worst[c][0];
                    worst[c][0] = loss;
                } else if (loss > worst[c][1]) {
                    worst[c][1] = loss;
                }
            }
    });
    t.phase = 2 * (pc.count[RED][ROOK] + pc.count[BLACK][ROOK]) + pc.count[RED][HORSE] +
              pc.count[BLACK][HORSE] + pc.count[RED][CANNON] + pc.count[BLACK][CANNON];
    t.phase = std::min(t.phase, PHASE_MAX);
    for_each_colour([&](auto colour) {
        constexpr Color c = decltype(colour)::value;
        t.mobility[c] = ai.mobility[c];
        t.king[c] = king_safety<TRACE, c>(pos, pc, ai, force[~c], PW, tr);
        t.threats[c] = threat_score<TRACE>(tc[c], c, c == stm, PW, tr);
        // The side to move can save one threatened piece (its second counts most); the
        // opponent's en-prise pieces are mostly collected by the quiescence search.
        const auto& w = c == stm ? W.en_prise_to_move : W.en_prise_waiting;
        t.threat[c] = en_prise_value(w[0], worst[c][0], t.phase) + en_prise_value(w[1], worst[c][1], t.phase);
        if constexpr (TRACE) {
            auto& n = c == stm ? tr->counts.en_prise_to_move : tr->counts.en_prise_waiting;
            const int sign = c == RED ? 1 : -1;
            n[0] += sign * worst[c][0];
            n[1] += sign * worst[c][1];
        }
    });
    t.draw.count = pc.count;
    if constexpr (TRACE) {
        tr->phase = t.phase;
        tr->draw = t.draw;
        tr->side_to_move = stm;
    }
}

int taper(Score s, int phase) { return (s.mg * phase + s.eg * (PHASE_MAX - phase)) / PHASE_MAX; }

int red_view(const Terms& t) {
    PackedScore total = t.psq;
    total += t.mobility[RED] - t.mobility[BLACK];
    total += t.relations[RED] - t.relations[BLACK];
    total += t.king[RED] - t.king[BLACK];
    total += t.threats[RED] - t.threats[BLACK];
    return taper(total.unpack(), t.phase) + t.threat[RED] - t.threat[BLACK];
}

// Scales a score towards a draw for the material balances where the stronger side cannot
// force mate, or rarely can. Each rule is backed by test positions whose draw both our search
// and Fairy-Stockfish confirm (tests/endgames/draw_rules_test.cpp); the divisor is 16 where
// mate is impossible, 8 for the known drawn balances, 4 where a win is rare. The stronger
// side's own advisors and elephants never leave its half, so they do not count as attackers.
int scale_for_drawishness(const DrawMaterial& m, int v) {
    const Color strong = v > 0 ? RED : BLACK, weak = ~strong;
    const auto& n = m.count;
    const int rooks = n[strong][ROOK], horses = n[strong][HORSE], cannons = n[strong][CANNON], pawns = n[strong][PAWN];
    // A pawn on the last rank only moves sideways along it: it never attacks the palace's
    // two upper ranks, where the king stays, so it cannot give mate.
    const int live_pawns = pawns - m.last_rank_pawns[strong];
    if (rooks + horses + cannons + live_pawns == 0) return v / 16;  // no way to mate
    const int defenders = n[weak][ADVISOR] + n[weak][ELEPHANT];
    const bool full_defence = n[weak][ADVISOR] >= 2 && n[weak][ELEPHANT] >= 2;
    const int officers = rooks + horses + cannons;
    // A lone rook against two advisors and two elephants (单车难破士象全).
    if (rooks == 1 && officers == 1 && pawns == 0 && full_defence) return v / 8;
    // A lone horse against any two defenders (advisors and/or elephants).
    if (horses == 1 && officers == 1 && pawns == 0 && defenders >= 2) return v / 8;
    // A lone cannon: no screen to mate with, unless its own advisor serves as one against a
    // king with at most one defender (a cannon and an advisor beat a lone advisor).
    if (cannons == 1 && officers == 1 && pawns == 0 && (n[strong][ADVISOR] == 0 || defenders >= 2)) return v / 8;
    // A horse or a cannon with one pawn against two advisors and two elephants.
    if ((horses == 1 || cannons == 1) && officers == 1 && pawns == 1 && full_defence) return v / 4;
    // A lone pawn rarely wins against two defenders.
    if (officers == 0 && pawns == 1 && defenders >= 2) return v / 4;
    return v;
}

}  // namespace

int evaluate(const Position& pos) { return evaluate(pos, psq_of(pos)); }

int evaluate(const Position& pos, PackedScore psq) {
    Terms t;
    compute<false>(pos, psq, t, nullptr);
    int v = scale_for_drawishness(t.draw, red_view(t));
    v = pos.side_to_move() == RED ? v : -v;
    return v + TEMPO;
}

std::string eval_trace(const Position& pos) {
    Terms t;
    compute<false>(pos, psq_of(pos), t, nullptr);
    std::ostringstream out;
    auto line = [&](const char* name, PackedScore pr, PackedScore pb) {
        const Score r = pr.unpack(), b = pb.unpack();
        out << name << " red " << r.mg << "/" << r.eg << " black " << b.mg << "/" << b.eg << "\n";
    };
    line("material ", material_of(pos, RED), material_of(pos, BLACK));
    line("pst      ", pst_of(pos, RED), pst_of(pos, BLACK));
    line("mobility ", t.mobility[RED], t.mobility[BLACK]);
    line("relations", t.relations[RED], t.relations[BLACK]);
    line("king     ", t.king[RED], t.king[BLACK]);
    line("threats  ", t.threats[RED], t.threats[BLACK]);
    out << "en prise   red " << t.threat[RED] << " black " << t.threat[BLACK] << "\n";
    out << "phase " << t.phase << "/" << PHASE_MAX << "\n";
    const int red = scale_for_drawishness(t.draw, red_view(t));
    out << "total (Red's view) " << red << ", side to move " << (pos.side_to_move() == RED ? red : -red) + TEMPO;
    return out.str();
}

EvalTrace trace_evaluation(const Position& pos) {
    EvalTrace tr;
    Terms t;
    compute<true>(pos, psq_of(pos), t, &tr);
    return tr;
}

int evaluate_trace(const EvalTrace& tr, const EvalWeights& w) {
    Score total{tr.fixed_mg, tr.fixed_eg};
    int en_prise = 0;  // tapered term by term (en_prise_value)
    EvalCounts counts = tr.counts;
    EvalWeights weights = w;
    for_each_entry(weights, counts, [&](const std::string& name, const Score& s, int n) {
        if (is_en_prise_entry(name)) en_prise += en_prise_value(s, n, tr.phase);
        else total += s * n;
    });
    int v = scale_for_drawishness(tr.draw, taper(total, tr.phase) + en_prise);
    v = tr.side_to_move == RED ? v : -v;
    return v + TEMPO;
}

int draw_scale_divisor(const EvalTrace& tr, int red_view) {
    const int v = red_view > 0 ? 1 << 20 : -(1 << 20);
    return v / scale_for_drawishness(tr.draw, v);
}

int draw_scale_divisor(const Position& pos, int red_view) {
    Terms t;
    compute<false>(pos, PackedScore(), t, nullptr);  // only the material counts are read
    const int v = red_view > 0 ? 1 << 20 : -(1 << 20);
    return v / scale_for_drawishness(t.draw, v);
}

const EvalWeights& compiled_eval_weights() { return W; }

}  // namespace xq::engine
