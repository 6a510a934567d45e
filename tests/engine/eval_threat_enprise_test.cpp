// The en-prise weights (EvalTable::en_prise_to_move, en_prise_waiting): the losses the trace
// counts, the evaluation the trace and the tuner give with other values of them, and a fit
// that finds them again.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/eval.h"
#include "engine_test_position.h"
#include "texel_tuner.h"
#include "xiangqi/game.h"

namespace xq::engine {
namespace {

using engine_test::from_fen;

TEST(EnPrise, TheTraceCountsTheLossesOfTheSideToMoveAndTheOtherSide) {
    // Red's rook on a4 attacks Black's undefended horse on g4: Black stands to lose the horse
    // (420). Red to move: it is the waiting side's loss, Red minus Black.
    const EvalTrace red = trace_evaluation(from_fen("4k4/9/9/9/9/R5n2/9/9/9/5K3 w - - 0 1"));
    EXPECT_EQ(red.counts.en_prise_waiting[0], -420);
    EXPECT_EQ(red.counts.en_prise_waiting[1], 0);
    EXPECT_EQ(red.counts.en_prise_to_move[0], 0);
    const EvalTrace black = trace_evaluation(from_fen("4k4/9/9/9/9/R5n2/9/9/9/5K3 b - - 0 1"));
    EXPECT_EQ(black.counts.en_prise_to_move[0], -420);
    EXPECT_EQ(black.counts.en_prise_waiting[0], 0);
    // Red's horse on c4 forks Black's undefended rook on d6 and cannon on e5; Black to move
    // loses the second (950, then 450).
    const EvalTrace fork = trace_evaluation(from_fen("4k4/9/9/3r5/4c4/2N6/9/9/9/5K3 b - - 0 1"));
    EXPECT_EQ(fork.counts.en_prise_to_move[0], -950);
    EXPECT_EQ(fork.counts.en_prise_to_move[1], -450);
    // The colours swapped and the board turned: the same losses, Red's.
    const EvalTrace flipped = trace_evaluation(from_fen("3k5/9/9/9/6n2/4C4/5R3/9/9/4K4 w - - 0 1"));
    EXPECT_EQ(flipped.counts.en_prise_to_move[0], 950);
    EXPECT_EQ(flipped.counts.en_prise_to_move[1], 450);
}

TEST(EnPrise, TheCompiledWeightsAreTheHandSetTerm) {
    // The side to move loses an eighth of its worst loss and half its second, the other side a
    // tenth of its worst (truncated each), whatever the phase.
    const Position fork = from_fen("4k4/9/9/3r5/4c4/2N6/9/9/9/5K3 b - - 0 1");
    const EvalWeights& w = compiled_eval_weights();
    for (int phase : {0, 3, 16}) {
        EXPECT_EQ(en_prise_value(w.en_prise_to_move[0], 950, phase), -(950 / 8));
        EXPECT_EQ(en_prise_value(w.en_prise_to_move[1], 450, phase), -(450 / 2));
        EXPECT_EQ(en_prise_value(w.en_prise_waiting[0], 420, phase), -(420 / 10));
        EXPECT_EQ(en_prise_value(w.en_prise_waiting[1], 420, phase), 0);
        EXPECT_EQ(en_prise_value(w.en_prise_to_move[0], -950, phase), 950 / 8);  // Black's, Red's view
    }
    EXPECT_NE(eval_trace(fork).find("en prise   red 0 black -343"), std::string::npos) << eval_trace(fork);
}

TEST(EnPrise, OtherValuesMoveTheTracedEvaluationAsTheTunerComputesIt) {
    // Black's horse en prise, Red to move, phase 3 (a rook and a horse): a middle-game weight
    // of -300 per mille and an end-game one of -100 cost Black 420 x (-300 x 3 - 100 x 13) /
    // 16000 = -57 (truncated) instead of the compiled tenth (-42).
    const Position p = from_fen("4k4/9/9/9/9/R5n2/9/9/9/5K3 w - - 0 1");
    const EvalTrace tr = trace_evaluation(p);
    ASSERT_EQ(tr.phase, 3);
    EvalWeights w = compiled_eval_weights();
    const int before = evaluate_trace(tr, w);
    EXPECT_EQ(before, evaluate(p));
    w.en_prise_waiting[0] = {-300, -100};
    EXPECT_EQ(evaluate_trace(tr, w) - before, 57 - 42);
    // Other values of all four: the trace with the compiled weights is the evaluation, and
    // with the other weights the tuner's form agrees with the trace.
    w.en_prise_to_move[0] = {-210, -60};
    w.en_prise_to_move[1] = {-700, -350};
    w.en_prise_waiting[1] = {-40, 25};
    const std::vector<int> compiled = weights_to_vector(compiled_eval_weights()), other = weights_to_vector(w);
    TexelTuner tuner;
    const std::vector<Position> positions = engine_test::random_game_positions(1000, 4242, 100);
    int changed = 0, second_waiting = 0;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Position& q = positions[i];
        const EvalTrace t = trace_evaluation(q);
        ASSERT_EQ(evaluate_trace(t, compiled_eval_weights()), evaluate(q)) << q.fen();
        tuner.add(q, 0.5, false);
        const int sign = q.side_to_move() == RED ? 1 : -1;
        ASSERT_EQ(tuner.red_eval(i, compiled), sign * evaluate(q)) << q.fen();
        const int stm = evaluate_trace(t, w);
        ASSERT_EQ(tuner.red_eval(i, other), sign * stm) << q.fen();
        changed += stm != evaluate(q);
        second_waiting += t.counts.en_prise_waiting[1] != 0;
    }
    EXPECT_GT(changed, 300);
    EXPECT_GT(second_waiting, 50);
}

TEST(EnPrise, AFitFindsADearerLossForTheSideToMove) {
    // Targets from an evaluation whose side to move loses a third of its worst piece en prise
    // instead of an eighth (its win probability): the fit of the en-prise weights alone from the
    // compiled ones lowers the error and moves that weight most of the way to -333.
    EvalWeights truth = compiled_eval_weights();
    truth.en_prise_to_move[0] = {-333, -333};
    const std::vector<Position> positions = engine_test::random_game_positions(3000, 99, 100);
    TexelTuner tuner;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Position& p = positions[i];
        const int stm = evaluate_trace(trace_evaluation(p), truth);
        tuner.add(p, 1.0 / (1.0 + std::exp(-0.006 * (p.side_to_move() == RED ? stm : -stm))), i % 5 == 0);
    }
    const std::vector<int> start = weights_to_vector(compiled_eval_weights());
    tuner.fit_k(start);
    const double train0 = tuner.error(start, false), hold0 = tuner.error(start, true);
    TexelTuner::TuneOptions opt;
    opt.iterations = 300;
    opt.rate = 3.0;
    const auto names = weight_names();
    opt.tuned.assign(names.size(), false);
    for (std::size_t i = 0; i < names.size(); ++i) opt.tuned[i] = is_en_prise_entry(names[i]);
    const std::vector<int> tuned = tuner.tune(start, opt);
    EXPECT_LT(tuner.error(tuned, false), train0);
    EXPECT_LT(tuner.error(tuned, true), hold0);
    EvalWeights fitted{};
    ASSERT_TRUE(weights_from_vector(tuned, fitted));
    const Score s = fitted.en_prise_to_move[0];
    EXPECT_LT(s.mg, -280);
    EXPECT_LT(s.eg, -280);
    EXPECT_EQ(fitted.material, compiled_eval_weights().material);
}

}  // namespace
}  // namespace xq::engine
