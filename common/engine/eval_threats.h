// The evaluation's threats (eval.cpp only): enemy pieces attacked by a cheaper piece or left
// undefended, counted per attacker class and victim type, and the side to move's tempo (it
// can cash one threat of its own, or save one of its pieces but not two).
#pragma once

#include <bit>
#include <cstdint>

#include "eval_sets.h"

namespace xq::engine::eval_sets {

// The threats of one side against the other side's pieces (kings excluded). Each attacked
// piece counts once, in the first class that applies:
//   threat_by_pawn       a horse, rook, cannon, advisor or elephant attacked by a pawn
//   threat_by_minor[v]   a piece of type v attacked by a horse or cannon, v a rook or undefended
//   threat_by_rook[v]    an undefended piece of type v attacked by a rook
//   hanging              an undefended piece attacked only by the king, advisors or elephants
// and, scored once per side:
//   threat_on_move       the side is to move and has at least one of the threats above
//   multi_threat         the side is not to move and has two or more (one piece can be saved)
struct ThreatCounts {
    int n = 0, by_pawn = 0, hanging = 0;
    std::uint32_t by_minor = 0, by_rook = 0;  // 4 bits per victim type

    // A piece of type ty on the point m, attacked by the attacker's sets `a`.
    void add(const std::array<Bits, PIECE_TYPE_NB>& a, PieceType ty, Bits m, bool undefended) {
        if ((a[PAWN] & m) && ty != PAWN) ++by_pawn;
        else if (((a[HORSE] | a[CANNON]) & m) && (undefended || ty == ROOK)) by_minor += 1u << (4 * ty);
        else if (!undefended) return;
        else if (a[ROOK] & m) by_rook += 1u << (4 * ty);
        else ++hanging;
        ++n;
    }
};

// The weights' sum for the counts of colour `us` (a bonus for it), `on_move` when it is to move.
template <bool TRACE>
PackedScore threat_score(const ThreatCounts& tc, Color us, bool on_move, const PackedWeights& W, EvalTrace* tr) {
    if (!tc.n) return {};
    const bool multi = !on_move && tc.n >= 2;
    PackedScore s = W.threat_by_pawn * tc.by_pawn + W.hanging * tc.hanging;
    // Only the victim types present (usually one or two).
    auto per_type = [&](std::uint32_t packed, const std::array<PackedScore, PIECE_TYPE_NB>& w, std::array<int, PIECE_TYPE_NB>* count) {
        while (packed) {
            const int shift = std::countr_zero(packed) & ~3, k = int(packed >> shift) & 15;
            s += w[shift / 4] * k;
            if constexpr (TRACE) (*count)[shift / 4] += us == RED ? k : -k;
            packed &= ~(15u << shift);
        }
    };
    per_type(tc.by_minor, W.threat_by_minor, TRACE ? &tr->counts.threat_by_minor : nullptr);
    per_type(tc.by_rook, W.threat_by_rook, TRACE ? &tr->counts.threat_by_rook : nullptr);
    if (on_move) s += W.threat_on_move;
    if (multi) s += W.multi_threat;
    if constexpr (TRACE) {
        const int sign = us == RED ? 1 : -1;
        tr->counts.threat_by_pawn += sign * tc.by_pawn;
        tr->counts.hanging += sign * tc.hanging;
        tr->counts.threat_on_move += sign * on_move;
        tr->counts.multi_threat += sign * multi;
    }
    return s;
}

}  // namespace xq::engine::eval_sets
