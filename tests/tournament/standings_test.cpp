// Standings and tie-breaks on small events worked out by hand.
#include <gtest/gtest.h>

#include "server/tournament/standings.h"

namespace xq::server::tournament {
namespace {

TEST(Standings, PointsThenBuchholzThenSonnebornBerger) {
    // 0 beats 3, 1 beats 2; 0 draws 1, 2 beats 3; 0 draws 2, 3 draws 1.
    // Points: 0 and 1 have 4, 2 has 3, 3 has 1. Buchholz: 0 and 1 have 8 (1+4+3, 3+4+1).
    // Sonneborn-Berger (doubled): 0 = 2*1 + 1*4 + 1*3 = 9, 1 = 2*3 + 1*4 + 1*1 = 11.
    const std::vector<PlayedGame> games = {
        {1, 0, 3, Outcome::RedWin}, {1, 1, 2, Outcome::RedWin},
        {2, 0, 1, Outcome::Draw},   {2, 3, 2, Outcome::BlackWin},
        {3, 2, 0, Outcome::Draw},   {3, 3, 1, Outcome::Draw},
    };
    const auto table = standings(4, games);
    ASSERT_EQ(table.size(), 4u);
    EXPECT_EQ(table[0].id, 1);
    EXPECT_EQ(table[0].points, 4);
    EXPECT_EQ(table[0].buchholz, 8);
    EXPECT_EQ(table[0].sonneborn_berger2, 11);
    EXPECT_EQ(table[1].id, 0);
    EXPECT_EQ(table[1].sonneborn_berger2, 9);
    EXPECT_EQ(table[2].id, 2);
    EXPECT_EQ(table[2].points, 3);
    EXPECT_EQ(table[2].buchholz, 9);
    EXPECT_EQ(table[3].id, 3);
    EXPECT_EQ(table[3].points, 1);
    EXPECT_EQ(table[3].buchholz, 11);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(table[static_cast<std::size_t>(i)].rank, i + 1);
    EXPECT_EQ(table[0].wins, 1);
    EXPECT_EQ(table[0].games, 3);
}

TEST(Standings, EntrantsEqualOnEveryTieBreakShareTheRank) {
    // Three draws among 0, 1, 2 and each of them beats 3: all equal.
    const std::vector<PlayedGame> games = {
        {1, 0, 3, Outcome::RedWin}, {1, 1, 2, Outcome::Draw},
        {2, 3, 2, Outcome::BlackWin}, {2, 0, 1, Outcome::Draw},
        {3, 1, 3, Outcome::RedWin}, {3, 2, 0, Outcome::Draw},
    };
    const auto table = standings(4, games);
    EXPECT_EQ(table[0].rank, 1);
    EXPECT_EQ(table[1].rank, 1);
    EXPECT_EQ(table[2].rank, 1);
    EXPECT_EQ(table[3].rank, 4);
    EXPECT_EQ(table[0].id, 0);  // the seed orders the list inside a shared rank
}

TEST(Standings, ByesAndForfeitsScoreButAreNotGamesPlayed) {
    const std::vector<PlayedGame> games = {
        {1, 0, BYE, Outcome::Bye},
        {1, 1, 2, Outcome::RedForfeit},   // 1 did not show: 2 wins
        {2, 0, 1, Outcome::DoubleForfeit},
    };
    const auto table = standings(3, games);
    auto of = [&](EntrantId id) {
        for (const Standing& s : table)
            if (s.id == id) return s;
        return Standing{};
    };
    EXPECT_EQ(of(0).points, 2);
    EXPECT_EQ(of(0).wins, 0);  // a bye is no win
    EXPECT_EQ(of(0).games, 0);
    EXPECT_EQ(of(2).points, 2);
    EXPECT_EQ(of(2).wins, 1);
    EXPECT_EQ(of(2).games, 0);
    EXPECT_EQ(of(1).points, 0);
    EXPECT_EQ(of(1).buchholz, 2 + 2);  // met 2 (forfeit) and 0 (double forfeit)
    EXPECT_EQ(of(0).buchholz, 0);      // the bye adds nothing
    EXPECT_EQ(points_of(games[1], 5), 0);
}

}  // namespace
}  // namespace xq::server::tournament
