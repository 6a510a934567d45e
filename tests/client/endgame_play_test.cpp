// Endgame challenges in the client: the player's side, what counts as solved, the goal in
// both languages, and the progress lines of client.conf.
#include <gtest/gtest.h>

#include "core/client_config.h"
#include "core/endgame_play.h"

namespace xq::client {
namespace {

endgames::Challenge challenge(const std::string& fen, endgames::Verdict v, int mate_in) {
    endgames::Challenge c;
    c.id = "t-1";
    c.name_en = "A rook against two advisors";
    c.name_zh = "单车对双士";
    c.fen = fen;
    c.side_to_move = fen.find(" b ") != std::string::npos ? BLACK : RED;
    c.verdict = v;
    c.mate_in = mate_in;
    return c;
}

TEST(EndgamePlay, ThePlayerTakesTheSideToMoveAsTheCollectionReadIt) {
    int black = 0;
    for (const endgames::Challenge& c : endgames::challenges()) {
        Position pos;
        ASSERT_EQ(pos.set_fen(c.fen), FenError::None);
        EXPECT_EQ(c.side_to_move, pos.side_to_move()) << c.id;
        black += c.side_to_move == BLACK;
    }
    EXPECT_GE(black, 3);
}

TEST(EndgamePlay, AWinNeedsTheWinAndADrawNeedsADrawOrBetter) {
    using endgames::Verdict;
    EXPECT_TRUE(endgame_solved(Verdict::Win, RED, Outcome::RedWins));
    EXPECT_FALSE(endgame_solved(Verdict::Win, RED, Outcome::Draw));
    EXPECT_FALSE(endgame_solved(Verdict::Win, RED, Outcome::BlackWins));
    EXPECT_TRUE(endgame_solved(Verdict::Win, BLACK, Outcome::BlackWins));
    EXPECT_FALSE(endgame_solved(Verdict::Win, BLACK, Outcome::RedWins));
    EXPECT_TRUE(endgame_solved(Verdict::Draw, BLACK, Outcome::Draw));
    EXPECT_TRUE(endgame_solved(Verdict::Draw, BLACK, Outcome::BlackWins));
    EXPECT_FALSE(endgame_solved(Verdict::Draw, BLACK, Outcome::RedWins));
    EXPECT_FALSE(endgame_solved(Verdict::Draw, RED, Outcome::Ongoing));
}

TEST(EndgamePlay, TheGoalInBothLanguages) {
    const auto win = challenge("3ak4/4a4/9/9/9/9/9/9/9/R2K5 w - - 0 1", endgames::Verdict::Win, 3);
    EXPECT_EQ(endgame_goal(Lang::English, win), "Red to move and win: mate in at most 3");
    EXPECT_EQ(endgame_goal(Lang::Chinese, win), "红方先胜：3步内将死");
    const auto draw = challenge("5k3/9/3a5/9/4P4/9/9/4K4/9/9 b - - 0 1", endgames::Verdict::Draw, 0);
    EXPECT_EQ(endgame_goal(Lang::English, draw), "Black to move and hold the draw");
    EXPECT_EQ(endgame_goal(Lang::Chinese, draw), "黑方先和：守住和棋");
    EXPECT_EQ(endgame_name(Lang::Chinese, win), "单车对双士");
    EXPECT_EQ(endgame_name(Lang::English, win), "A rook against two advisors");
}

TEST(EndgamePlay, ProgressLinesRoundTripAndBadOnesAreNamed) {
    std::vector<std::string> problems;
    ClientConfig c = parse_config("endgame=r-aa-1 3 1\nendgame=h-a-2 1 0\n", problems);
    EXPECT_TRUE(problems.empty());
    ASSERT_EQ(c.endgames.size(), 2u);
    EXPECT_EQ(c.endgames["r-aa-1"].tried, 3);
    EXPECT_TRUE(c.endgames["r-aa-1"].solved);
    EXPECT_FALSE(c.endgames["h-a-2"].solved);
    const ClientConfig again = parse_config(format_config(c), problems);
    EXPECT_TRUE(problems.empty());
    EXPECT_EQ(again.endgames.size(), 2u);
    EXPECT_EQ(again.endgames.at("r-aa-1").tried, 3);

    for (const char* bad : {"endgame=r-aa-1", "endgame=r-aa-1 x 1", "endgame=r-aa-1 2 2", "endgame=r-aa-1 -1 0",
                            "endgame=r-aa-1 2 1 extra"}) {
        problems.clear();
        const ClientConfig b = parse_config(bad, problems);
        EXPECT_TRUE(b.endgames.empty()) << bad;
        EXPECT_EQ(problems.size(), 1u) << bad;
    }
}

}  // namespace
}  // namespace xq::client
