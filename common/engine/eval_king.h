// The evaluation's king safety (eval.cpp only): attacks on the palace, attackers against
// missing defenders, cannons and rooks on the king's file, and king danger (attackers on the
// palace, safe king steps, safe check points), with the trace of each term for the tuner.
#pragma once

#include <algorithm>

#include "eval_sets.h"

namespace xq::engine::eval_sets {

// King safety of colour c: attacks on its palace, attackers against missing defenders, and
// cannons or rooks lined up on the king's file.
// (The colour a template argument: each colour compiled apart, see for_each_colour in eval.cpp.)
template <bool TRACE, Color c>
PackedScore king_safety(const Position& pos, const Pieces& pc, const AttackInfo& ai, int force, const PackedWeights& W,
                        EvalTrace* tr) {
    const int sign = c == RED ? -1 : 1;  // every term here is a penalty for c
    const Color them = ~c;
    PackedScore s;
    const Square ks = pos.king_square(c);
    // The palace: files d-f of ranks 0-2 (Red) or 7-9 (Black).
    const int palace_hits = popcount(ai.all[them] & STEPS.palace[c]);
    s -= W.palace_attack * palace_hits;

    const int defenders = pos.count(c, ADVISOR) + pos.count(c, ELEPHANT);
    s -= W.exposed_king_unit * (force * (4 - defenders));
    if constexpr (TRACE) {
        tr->counts.palace_attack += sign * palace_hits;
        tr->counts.exposed_king_unit += sign * force * (4 - defenders);
    }

    // Pieces on the king's file, walking away from the king towards the enemy (the file's
    // occupied ranks beyond the king, nearest first).
    const int f = file_of(ks), r = rank_of(ks), rs = r * FILE_NB;
    const unsigned rank_occ = pos.rank_occupancy(r);
    const unsigned file_occ = pos.file_occupancy(f);
    int screens = 0;
    for (unsigned b = c == RED ? file_occ & ~((2u << r) - 1) : file_occ & ((1u << r) - 1); b;) {
        const int pr = c == RED ? std::countr_zero(b) : 31 - std::countl_zero(b);
        b &= ~(1u << pr);
        const Piece p = pos.piece_on(make_square(f, pr));
        if (color_of(p) == them && type_of(p) == CANNON) {
            if (screens == 0) {
                s -= W.empty_headed_cannon;
                if constexpr (TRACE) tr->counts.empty_headed_cannon += sign;
            } else if (screens >= 2) {
                s -= W.central_cannon;
                if constexpr (TRACE) tr->counts.central_cannon += sign;
            }
            break;
        }
        if (color_of(p) == them && type_of(p) == ROOK) {
            if (screens >= 1) {
                s -= W.rook_on_king_file;
                if constexpr (TRACE) tr->counts.rook_on_king_file += sign;
            }
            break;
        }
        if (++screens > 3) break;
    }

    // King danger: the enemy pieces that hit the palace, the king's safe steps, and the
    // unguarded points from which an enemy rook, cannon or horse could check next move.
    const int attackers = std::min(ai.palace_attackers[them], KING_ATTACKERS - 1);
    const Bits guarded = ai.all[c];
    const int steps = std::min(popcount(STEPS.king[ks] & ~pc.occ[c] & ~ai.all[them]), KING_STEPS - 1);
    const Bits rook_points = (Bits(LINES.rook[f][rank_occ] & 511u) << rs) | file_set(LINES.rook[r][file_occ], f);
    const Bits cannon_points = (Bits(CANNON_TO[f][rank_occ] & 511u) << rs) | file_set(CANNON_TO[r][file_occ], f);
    const Bits free_for_them = ~pc.occ[them] & ~guarded;
    const int rook_checks = popcount(rook_points & ai.by_type[them][ROOK] & free_for_them);
    const int cannon_checks =
        popcount(cannon_points & (ai.cannon_quiet[them] | (ai.by_type[them][CANNON] & pc.occ[c])) & free_for_them);
    const Bits horse_points = BLOCKED.horse_to[ks][diagonal_index(pc.padded, ks)];
    const int horse_checks = popcount(horse_points & ai.by_type[them][HORSE] & free_for_them);
    s -= W.king_attackers[attackers] + W.king_safe_steps[steps] + W.safe_check[ROOK] * rook_checks +
         W.safe_check[CANNON] * cannon_checks + W.safe_check[HORSE] * horse_checks;
    if constexpr (TRACE) {
        tr->counts.king_attackers[attackers] += sign;
        tr->counts.king_safe_steps[steps] += sign;
        tr->counts.safe_check[ROOK] += sign * rook_checks;
        tr->counts.safe_check[CANNON] += sign * cannon_checks;
        tr->counts.safe_check[HORSE] += sign * horse_checks;
    }
    return s;
}

}  // namespace xq::engine::eval_sets
