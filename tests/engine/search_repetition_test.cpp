// Search tests on repetition rulings: the engine avoids losing by perpetual check or chase,
// wins by the opponent's perpetual check without calling it mate, and scores an idle
// repetition as a draw.
#include <gtest/gtest.h>

#include <vector>

#include "engine/search.h"
#include "engine_test_position.h"
#include "xiangqi/game.h"

namespace {

using namespace xq;
using namespace xq::engine;
using xq::engine_test::from_fen;
using xq::engine_test::mv;

// Red, two rooks down, checks with its rook from the e- and f-files; the black king steps
// between e9 and f9.
constexpr const char* CHECKING_FEN = "3ak4/9/9/rr7/5R3/9/9/9/9/3K5 w - - 0 1";

// Red has been checking; repeating the check once more would lose by perpetual check (the
// referee's ruling). The engine, far behind in material, must still choose another move.
TEST(Search, AvoidsLosingByPerpetualCheck) {
    const Position start = from_fen(CHECKING_FEN);
    const std::vector<Move> cycle = {mv("f5e5"), mv("e9f9"), mv("e5f5"), mv("f9e9")};

    // The premise, checked by the referee: going round the cycle twice loses for Red.
    Game g(start);
    for (int i = 0; i < 2; ++i)
        for (Move m : cycle) ASSERT_TRUE(g.play(m));
    ASSERT_TRUE(g.over());
    EXPECT_EQ(g.result().reason, EndReason::PerpetualCheck);
    EXPECT_EQ(g.result().outcome, Outcome::BlackWins);

    for (int depth : {1, 2, 4, 8}) {
        Engine engine;
        Limits lim;
        lim.depth = depth;
        const Result r = engine.search(start, cycle, lim);
        ASSERT_TRUE(r.best);
        EXPECT_NE(r.best, mv("f5e5")) << "depth " << depth;
    }
}

// Red's horse attacks the black rook from b6 and c4 in turn while the rook flees between a8
// and a5: a perpetual chase (a rook attacked by a horse is chased even when protected).
TEST(Search, AvoidsLosingByPerpetualChase) {
    const Position start = from_fen("4k3r/r8/9/9/9/2N6/9/9/9/3K5 w - - 0 1");
    const std::vector<Move> cycle = {mv("c4b6"), mv("a8a5"), mv("b6c4"), mv("a5a8")};
    Game g(start);
    for (int i = 0; i < 2; ++i)
        for (Move m : cycle) ASSERT_TRUE(g.play(m));
    ASSERT_TRUE(g.over());
    EXPECT_EQ(g.result().reason, EndReason::PerpetualChase);
    EXPECT_EQ(g.result().outcome, Outcome::BlackWins);

    for (int depth : {1, 3, 6}) {
        Engine engine;
        Limits lim;
        lim.depth = depth;
        const Result r = engine.search(start, cycle, lim);
        ASSERT_TRUE(r.best);
        EXPECT_NE(r.best, mv("c4b6")) << "depth " << depth;
    }
}

TEST(Search, OpponentsPerpetualCheckIsNoWinUntilItIsRepeatedAgain) {
    // Black to move after Red checked three times: stepping back repeats a position of the
    // game with every red move a check. The referee rules at the third occurrence, and Red, to
    // move, may still leave the cycle, so this is no rule win yet (it was scored 19,999 cp, and
    // Fairy-Stockfish games showed such scores a few moves before our engine was mated).
    const Position start = from_fen(CHECKING_FEN);
    const std::vector<Move> history = {mv("f5e5"), mv("e9f9"), mv("e5f5"), mv("f9e9"), mv("f5e5")};
    Engine engine;
    Limits lim;
    lim.depth = 3;
    lim.searchmoves = {mv("e9f9")};
    const Result r = engine.search(start, history, lim);
    EXPECT_EQ(r.best, mv("e9f9"));
    EXPECT_EQ(r.mate_in, 0);
    EXPECT_LT(r.score_cp, RULE_WIN_CP - 1000);

    // Red checking once more brings the start position back a third time: a rule loss for
    // Red, found inside the tree and reported as a rule result, not as a mate.
    std::vector<Move> longer = history;
    longer.push_back(mv("e9f9"));
    Engine red;
    Limits only_check;
    only_check.depth = 4;
    only_check.searchmoves = {mv("e5f5")};
    const Result loss = red.search(start, longer, only_check);
    EXPECT_EQ(loss.best, mv("e5f5"));
    EXPECT_EQ(loss.mate_in, 0);
    EXPECT_LT(loss.score_cp, -RULE_WIN_CP + 10);
}

TEST(Search, LosingRepetitionIsNotReportedAsMate) {
    // Red has no way out but the checking cycle in the mirrored case: give Red only the
    // repeating check (searchmoves) and the score is a rule loss, not "mated in N".
    const Position start = from_fen(CHECKING_FEN);
    const std::vector<Move> cycle = {mv("f5e5"), mv("e9f9"), mv("e5f5"), mv("f9e9")};
    Engine engine;
    Limits lim;
    lim.depth = 4;
    lim.searchmoves = {mv("f5e5")};
    const Result r = engine.search(start, cycle, lim);
    EXPECT_EQ(r.best, mv("f5e5"));
    EXPECT_EQ(r.mate_in, 0);
    EXPECT_LT(r.score_cp, -RULE_WIN_CP + 10);
}

TEST(Search, IdleRepetitionIsADraw) {
    // Same material, but Red's rook shuffles without checking: repeating is a draw (0), far
    // better for Red than anything else.
    const Position start = from_fen("3ak4/9/9/rr7/6R2/9/9/9/9/3K5 w - - 0 1");
    const std::vector<Move> history = {mv("g5h5"), mv("e9e8"), mv("h5g5"), mv("e8e9")};
    Game g(start);
    for (Move m : history) ASSERT_TRUE(g.play(m));
    ASSERT_FALSE(g.over());
    Engine engine;
    Limits lim;
    lim.depth = 4;
    const Result r = engine.search(start, history, lim);
    EXPECT_EQ(r.score_cp, 0);
    EXPECT_EQ(r.best, mv("g5h5"));
}

}  // namespace
