// The evaluation's threat counts (eval_threats.h): pieces attacked by a cheaper class or left
// undefended, and the side to move's tempo. Counts are Red minus Black.
#include <gtest/gtest.h>

#include "engine/eval.h"
#include "engine_test_position.h"

namespace {

using namespace xq;
using namespace xq::engine;
using xq::engine_test::from_fen;

EvalCounts counts(const char* fen) { return trace_evaluation(from_fen(fen)).counts; }

TEST(Threats, AHorseOnAnUndefendedCannonIsAThreatAndTheSideToMoveCanTakeIt) {
    // Red's horse on c4 attacks Black's cannon on e5 over the free leg d4; nothing defends it.
    const EvalCounts red = counts("4k4/9/9/9/4c4/2N6/9/9/9/3K5 w - - 0 1");
    EXPECT_EQ(red.threat_by_minor[CANNON], 1);
    EXPECT_EQ(red.threat_on_move, 1);
    EXPECT_EQ(red.multi_threat, 0);
    EXPECT_EQ(red.hanging, 0);
    // Black to move: the threat stays, but it is not Red's move and one piece can be saved.
    const EvalCounts black = counts("4k4/9/9/9/4c4/2N6/9/9/9/3K5 b - - 0 1");
    EXPECT_EQ(black.threat_by_minor[CANNON], 1);
    EXPECT_EQ(black.threat_on_move, 0);
    EXPECT_EQ(black.multi_threat, 0);
    // A black pawn on e6 defends the cannon: a horse on a defended cannon is no threat.
    EXPECT_EQ(counts("4k4/9/9/4p4/4c4/2N6/9/9/9/3K5 w - - 0 1").threat_by_minor[CANNON], 0);
}

TEST(Threats, AForkOfRookAndCannonIsAMultiThreatWhenTheVictimIsToMove) {
    // The horse on c4 hits the rook on d6 (leg c5) and the cannon on e5 (leg d4).
    const EvalCounts black = counts("4k4/9/9/3r5/4c4/2N6/9/9/9/5K3 b - - 0 1");
    EXPECT_EQ(black.threat_by_minor[ROOK], 1);
    EXPECT_EQ(black.threat_by_minor[CANNON], 1);
    EXPECT_EQ(black.multi_threat, 1);
    EXPECT_EQ(black.threat_on_move, 0);
    const EvalCounts red = counts("4k4/9/9/3r5/4c4/2N6/9/9/9/5K3 w - - 0 1");
    EXPECT_EQ(red.multi_threat, 0);
    EXPECT_EQ(red.threat_on_move, 1);
    // A rook is a threat for a horse even when defended (a black horse on e8 guards d6).
    EXPECT_EQ(counts("4k4/4n4/9/3r5/9/2N6/9/9/9/5K3 b - - 0 1").threat_by_minor[ROOK], 1);
}

TEST(Threats, PawnRookAndLesserAttackersAreCountedByClass) {
    // Red's crossed pawn on e6 attacks Black's horse on e7 (defended or not).
    EXPECT_EQ(counts("4k4/9/4n4/4P4/9/9/9/9/9/5K3 w - - 0 1").threat_by_pawn, 1);
    // Red's rook on a4 attacks Black's undefended horse on g4 along the rank.
    const EvalCounts rook = counts("4k4/9/9/9/9/R5n2/9/9/9/5K3 w - - 0 1");
    EXPECT_EQ(rook.threat_by_rook[HORSE], 1);
    EXPECT_EQ(rook.threat_by_minor[HORSE], 0);
    // Red's elephant on e2 attacks the undefended horse on g4 (eye f3 free): hanging.
    EXPECT_EQ(counts("4k4/9/9/9/9/6n2/9/4B4/9/5K3 w - - 0 1").hanging, 1);
}

TEST(Threats, TheCountsChangeSignUnderAColourFlip) {
    // The first position with the colours swapped and the board turned: Black's horse on c5
    // attacks Red's cannon on e4.
    const EvalCounts flipped = counts("3k5/9/9/9/2n6/4C4/9/9/9/4K4 b - - 0 1");
    EXPECT_EQ(flipped.threat_by_minor[CANNON], -1);
    EXPECT_EQ(flipped.threat_on_move, -1);
}

}  // namespace
