// The per-point piece-square term (EvalTable::pst_square): the points it lists, the trace's
// counts of it, and the evaluation the trace and the tuner give with other values of it.
#include <gtest/gtest.h>

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

int relative_rank(Color c, int sq) { return c == RED ? sq / 9 : 9 - sq / 9; }
int file_distance(int sq) { return sq % 9 > 4 ? sq % 9 - 4 : 4 - sq % 9; }

// 1 on every pst_square entry for_each_entry lists, 0 elsewhere.
EvalCounts listed_points() {
    EvalCounts listed{};
    for_each_entry(listed, listed, [](const std::string& name, int& n, int&) {
        if (name.rfind("pst_square[", 0) == 0) n = 1;
    });
    return listed;
}

TEST(PstSquare, ListsThePointsEachPieceCanStandOn) {
    const EvalCounts listed = listed_points();
    const int expected[PIECE_TYPE_NB] = {0, 6, 3, 4, 50, 50, 50, 31};  // king .. pawn
    for (int t = 0; t < PIECE_TYPE_NB; ++t) {
        int n = 0;
        for (const auto& rank : listed.pst_square[t])
            for (int v : rank) n += v;
        EXPECT_EQ(n, expected[t]) << "piece type " << t;
    }
    // Every piece of played positions stands on a listed point.
    for (const Position& p : engine_test::random_game_positions(400, 777, 120))
        for (int sq = 0; sq < SQ_NB; ++sq) {
            const Piece pc = p.piece_on(Square(sq));
            if (pc == NO_PIECE) continue;
            const Color c = color_of(pc);
            ASSERT_EQ(listed.pst_square[type_of(pc)][relative_rank(c, sq)][file_distance(sq)], 1)
                << p.fen() << " square " << sq;
        }
}

TEST(PstSquare, TheTraceCountsEachPieceOnItsPointRedMinusBlack) {
    // A Red horse on c2 (relative rank 2, two files from the centre).
    const EvalTrace one = trace_evaluation(from_fen("3k5/9/9/9/9/9/9/2N6/9/5K3 w - - 0 1"));
    EXPECT_EQ(one.counts.pst_square[HORSE][2][2], 1);
    EXPECT_EQ(one.counts.pst_square[KING][0][0], 0);  // both kings one file off the centre
    // A Black horse on g7 is on the same relative point: they cancel.
    const EvalTrace both = trace_evaluation(from_fen("3k5/9/6n2/9/9/9/9/2N6/9/5K3 w - - 0 1"));
    EXPECT_EQ(both.counts.pst_square[HORSE][2][2], 0);
    // A Black horse on its c-file third rank from Black's side mirrors to the same point.
    const EvalTrace black = trace_evaluation(from_fen("3k5/9/2n6/9/9/9/9/9/9/4K4 w - - 0 1"));
    EXPECT_EQ(black.counts.pst_square[HORSE][2][2], -1);
    EXPECT_EQ(black.counts.pst_square[KING][0][0], 1);
    EXPECT_EQ(black.counts.pst_square[KING][0][1], -1);
    // The trace tallies every piece of played positions on its point.
    for (const Position& p : engine_test::random_game_positions(300, 777, 120)) {
        EvalCounts tally{};
        for (int sq = 0; sq < SQ_NB; ++sq) {
            const Piece pc = p.piece_on(Square(sq));
            if (pc == NO_PIECE) continue;
            const Color c = color_of(pc);
            tally.pst_square[type_of(pc)][relative_rank(c, sq)][file_distance(sq)] += c == RED ? 1 : -1;
        }
        ASSERT_EQ(trace_evaluation(p).counts.pst_square, tally.pst_square) << p.fen();
    }
}

TEST(PstSquare, OtherValuesMoveTheTracedEvaluationAsTheTunerComputesIt) {
    // A value on the Red horse's point moves the evaluation by it (a lone horse's phase is 1 of
    // 16, no draw scaling: a horse and a king win against a bare king).
    const Position p = from_fen("3k5/9/9/9/9/9/9/2N6/9/5K3 w - - 0 1");
    const EvalTrace tr = trace_evaluation(p);
    ASSERT_EQ(tr.phase, 1);
    EvalWeights w = compiled_eval_weights();
    const int before = evaluate_trace(tr, w);
    EXPECT_EQ(before, evaluate(p));
    w.pst_square[HORSE][2][2] += Score{160, 320};
    EXPECT_EQ(evaluate_trace(tr, w) - before, (160 * 1 + 320 * 15) / 16);
    // Distinct values on every listed point: the trace and the tuner's sparse form agree.
    int i = 0;
    for_each_entry(w, w, [&](const std::string& name, Score& s, Score&) {
        if (name.rfind("pst_square[", 0) != 0) return;
        s = Score{i % 23 - 11, i % 17 - 8};
        ++i;
    });
    const std::vector<int> v = weights_to_vector(w);
    TexelTuner tuner;
    const std::vector<Position> positions = engine_test::random_game_positions(600, 777, 120);
    int changed = 0;
    for (std::size_t j = 0; j < positions.size(); ++j) {
        const Position& q = positions[j];
        tuner.add(q, 0.5, false);
        const int stm = evaluate_trace(trace_evaluation(q), w);
        ASSERT_EQ(tuner.red_eval(j, v), q.side_to_move() == RED ? stm : -stm) << q.fen();
        changed += stm != evaluate(q);
    }
    EXPECT_GT(changed, 300);
}

}  // namespace
}  // namespace xq::engine
