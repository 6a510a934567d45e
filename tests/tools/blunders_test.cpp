// xiangqi-blunders' judge (tools/engine/blunders.h): a move that leaves a rook to be taken is a
// blunder and a hung piece, a safe move of the same rook is neither; which engine of
// xiangqi-match played which colour; and the opening's given moves are not judged.
#include <gtest/gtest.h>

#include <string>

#include "blunders.h"
#include "engine/eval.h"

namespace {

using namespace xq;
using namespace xq::engine;

// Red's rook on a4, Black's on i5, the kings apart: a4-a5 puts the rook on the black rook's rank.
PgnGame rook_game(const std::string& moves, int round) {
    const std::string text = "[Round \"" + std::to_string(round) +
                             "\"]\n[FEN \"5k3/9/9/9/8r/R8/9/9/9/3K5 w - - 0 1\"]\n[Format \"ICCS\"]\n\n" + moves +
                             " *\n";
    const PgnReadResult r = read_pgn(text);
    EXPECT_TRUE(r.ok) << r.error;
    return r.game;
}

TEST(Blunders, AMoveThatHangsARookIsAHungPiece) {
    Engine engine(4);
    const PgnGame game = rook_game("1. A4-A5 I5-A5", 1);
    const auto verdicts = judge_moves(engine, game, RED, BlunderOptions{});
    ASSERT_EQ(verdicts.size(), 1u);
    const MoveVerdict& v = verdicts[0];
    EXPECT_EQ(v.ply, 0);
    EXPECT_EQ(to_iccs(v.played), "a4a5");
    EXPECT_NE(v.best, v.played);
    EXPECT_GE(v.loss_cp, 800);
    EXPECT_EQ(v.material_lost, PIECE_VALUE[ROOK]);
    EXPECT_TRUE(v.blunder);
    EXPECT_TRUE(v.hung);
}

TEST(Blunders, ASafeMoveOfTheRookIsNeither) {
    Engine engine(4);
    const PgnGame game = rook_game("1. A4-B4 I5-I6", 1);
    const auto verdicts = judge_moves(engine, game, RED, BlunderOptions{});
    ASSERT_EQ(verdicts.size(), 1u);
    EXPECT_LT(verdicts[0].loss_cp, 100);
    EXPECT_LE(verdicts[0].material_lost, 0);
    EXPECT_FALSE(verdicts[0].blunder);
    EXPECT_FALSE(verdicts[0].hung);
    // Black's reply is judged when Black is asked for.
    EXPECT_EQ(judge_moves(engine, game, BLACK, BlunderOptions{}).size(), 1u);
}

TEST(Blunders, TheThresholdDecides) {
    Engine engine(4);
    const PgnGame game = rook_game("1. A4-A5 I5-A5", 1);
    BlunderOptions opt;
    opt.threshold_cp = 5000;  // above the capped scores' whole range: nothing is a blunder
    const auto verdicts = judge_moves(engine, game, RED, opt);
    ASSERT_EQ(verdicts.size(), 1u);
    EXPECT_FALSE(verdicts[0].blunder);
    EXPECT_FALSE(verdicts[0].hung);
}

TEST(Blunders, EngineOneIsRedInTheOddRounds) {
    EXPECT_EQ(player_colour(rook_game("", 1), 1), RED);
    EXPECT_EQ(player_colour(rook_game("", 1), 2), BLACK);
    EXPECT_EQ(player_colour(rook_game("", 4), 1), BLACK);
    EXPECT_EQ(player_colour(rook_game("", 4), 2), RED);
    const PgnReadResult no_round = read_pgn("1. C3-C4 *\n");
    ASSERT_TRUE(no_round.ok);
    EXPECT_EQ(player_colour(no_round.game, 1), std::nullopt);
}

TEST(Blunders, TheOpeningsMovesAreNotJudged) {
    const PgnReadResult r = read_pgn("[Round \"1\"]\n\n1. C3-C4 H9-G7 2. H2-E2 *\n");
    ASSERT_TRUE(r.ok) << r.error;
    BlunderOptions opt;
    EXPECT_EQ(first_examined_ply(r.game, opt), 0);
    Position pos;
    const Move c3c4 = parse_iccs(pos, "c3c4").move;
    UndoInfo undo;
    pos.do_move(c3c4, undo);
    const Move h9g7 = parse_iccs(pos, "h9g7").move;
    const Move c6c5 = parse_iccs(pos, "c6c5").move;
    opt.openings = {{c3c4}, {c3c4, h9g7}, {c3c4, c6c5}};
    EXPECT_EQ(first_examined_ply(r.game, opt), 2);
    Engine engine(4);
    const auto verdicts = judge_moves(engine, r.game, RED, opt);
    ASSERT_EQ(verdicts.size(), 1u);  // only h2e2
    EXPECT_EQ(verdicts[0].ply, 2);
    opt.skip_plies = 3;
    EXPECT_EQ(first_examined_ply(r.game, opt), 3);
}

TEST(Blunders, TheTallyCountsGamesAndLosses) {
    MoveVerdict quiet, blunder, hung;
    blunder.blunder = true;
    hung.blunder = hung.hung = true;
    BlunderTally t;
    t.add({quiet, blunder, hung}, true);
    t.add({quiet, blunder}, false);
    t.add({quiet}, true);
    EXPECT_EQ(t.games, 3);
    EXPECT_EQ(t.moves, 6);
    EXPECT_EQ(t.blunders, 3);
    EXPECT_EQ(t.hung, 1);
    EXPECT_EQ(t.games_with_blunder, 2);
    EXPECT_EQ(t.games_with_blunder_lost, 1);
    EXPECT_EQ(t.games_with_hung, 1);
    EXPECT_EQ(t.games_with_hung_lost, 1);
    BlunderTally both = t;
    both.merge(t);
    EXPECT_EQ(both.games, 6);
    EXPECT_EQ(both.moves, 12);
    EXPECT_EQ(both.blunders, 6);
    EXPECT_EQ(both.hung, 2);
    EXPECT_EQ(both.games_with_blunder, 4);
    EXPECT_EQ(both.games_with_blunder_lost, 2);
    EXPECT_EQ(both.games_with_hung, 2);
    EXPECT_EQ(both.games_with_hung_lost, 2);
}

}  // namespace
