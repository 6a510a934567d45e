// Evaluation tests: symmetric under a colour flip, material counts.
#include <gtest/gtest.h>

#include "engine/eval.h"
#include "engine_test_position.h"

namespace {

using namespace xq;
using namespace xq::engine;
using xq::engine_test::from_fen;

TEST(Eval, SymmetricUnderColourFlip) {
    // The start position is symmetric: the side to move only gets the tempo bonus.
    const Position a;
    const Position b = from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    EXPECT_EQ(evaluate(a), evaluate(b));
    const Position c = from_fen("r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 0 1");
    const Position d = from_fen("rnbakab1r/9/1c2c1n2/p1p1p1p1p/9/9/P1P1P1P1P/1CN4C1/9/R1BAKABNR b - - 0 1");
    EXPECT_EQ(evaluate(c), evaluate(d));
}

TEST(Eval, MaterialCounts) {
    const Position up_a_rook = from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
    EXPECT_GT(evaluate(up_a_rook), 700);
}

}  // namespace
