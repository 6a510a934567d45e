// Static evaluation: material, piece-square tables, mobility and piece relations (attacked,
// defended and hanging pieces, king safety), tapered between middle game and end game.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "engine/eval_weights.h"
#include "xiangqi/position.h"

namespace xq::engine {

// Centipawn values used by move ordering and pruning (middle-game material).
inline constexpr int PIECE_VALUE[PIECE_TYPE_NB] = {0, 0, 200, 200, 420, 950, 450, 90};

// Score in centipawns from the side to move's point of view.
int evaluate(const Position& pos);

// The material and piece-square part of the evaluation, Red's pieces minus Black's (middle
// game and end game packed). The search keeps it move by move instead of summing it over the
// pieces at every evaluation: psq_of(pos) at the root, then psq_delta before each move.
PackedScore psq_of(const Position& pos);
// Each piece's value on each point (Black's negative).
extern const std::array<std::array<PackedScore, SQ_NB>, PIECE_NB> PSQ;
// What the legal move m changes in psq_of(pos) (called before the move is made).
inline PackedScore psq_delta(const Position& pos, Move m) {
    const Piece p = pos.moved_piece(m), victim = pos.piece_on(m.to());
    return PSQ[p][m.to()] - PSQ[p][m.from()] - PSQ[victim][m.to()];
}
// The same score as evaluate(pos), given psq == psq_of(pos).
int evaluate(const Position& pos, PackedScore psq);

// The same score split into its terms (Red's point of view), for `eval` in the front end
// and for tuning. One line per term.
std::string eval_trace(const Position& pos);

using PieceCounts = std::array<std::array<std::uint8_t, PIECE_TYPE_NB>, COLOR_NB>;

// What the draw scaling looks at: the pieces per colour and type, and the pawns on the last
// rank (they move only sideways there and never again reach the palace's upper ranks).
struct DrawMaterial {
    PieceCounts count{};
    std::array<std::uint8_t, COLOR_NB> last_rank_pawns{};
};

// What the evaluation of one position is made of, linear in the weights (for the tuner):
// evaluate_trace(trace_evaluation(pos), compiled_eval_weights()) == evaluate(pos).
struct EvalTrace {
    EvalCounts counts;            // occurrences of each weight, Red minus Black
    int fixed_mg = 0;             // the untuned part: formula piece-square tables, Red minus Black
    int fixed_eg = 0;
    int phase = 0;                // 0 (bare) .. 16 (all rooks, horses and cannons)
    Color side_to_move = RED;
    DrawMaterial draw{};          // what the draw scaling looks at
};

inline constexpr int EVAL_TEMPO = 12;   // for the side to move
inline constexpr int EVAL_PHASE_MAX = 16;

// The en-prise term of a loss (centipawns; negative for Black's in a trace) with the weight w
// (per mille, tapered by the phase), truncated toward zero as the evaluation computes it.
constexpr int en_prise_value(Score w, int loss, int phase) {
    return loss * (w.mg * phase + w.eg * (EVAL_PHASE_MAX - phase)) / (EVAL_PHASE_MAX * EN_PRISE_PER);
}

EvalTrace trace_evaluation(const Position& pos);
// The evaluation of the traced position with other weights (side to move's view).
int evaluate_trace(const EvalTrace& trace, const EvalWeights& w);
// The draw scaling's divisor (1, 4, 8 or 16) for a Red's-view score of that sign.
int draw_scale_divisor(const EvalTrace& trace, int red_view);
// The same for a position (the known drawn material balances, docs/engine.md).
int draw_scale_divisor(const Position& pos, int red_view);

}  // namespace xq::engine
