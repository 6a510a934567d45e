// Tuning positions from played games (pgn_positions.h): `xiangqi-tune positions` reads the
// match runner's PGN and keeps the quiet positions, as gen does for self-play.
#include <gtest/gtest.h>

#include <string>
#include <unordered_set>
#include <vector>

#include "pgn_positions.h"
#include "xiangqi/game.h"
#include "xiangqi/notation.h"
#include "xiangqi/pgn.h"

namespace xq::engine {
namespace {

// A game from `fen` (empty: the start position) through ICCS `moves`, ended with `outcome`
// (Ongoing leaves it unfinished), as ICCS PGN text.
std::string pgn_of(const std::string& fen, const std::vector<std::string>& moves, Outcome outcome) {
    Game game;
    if (!fen.empty()) {
        EXPECT_EQ(game.reset(fen), FenError::None);
    }
    for (const std::string& t : moves) {
        const ParsedMove p = parse_iccs(game.position(), t);
        EXPECT_TRUE(p.move && game.play(p.move)) << t;
    }
    if (outcome != Outcome::Ongoing) game.finish(outcome, EndReason::Adjudication, "adjudicated");
    return write_pgn(game, {{"Red", "a"}, {"Black", "b"}}, Notation::Iccs);
}

// The central cannon takes a pawn and the horse takes it back: the positions before the two
// captures are not recorded.
const std::vector<std::string> CAPTURES = {"h2e2", "h9g7", "e2e6", "g7e6"};
// A lone rook chases the king: Red's positions are recorded, Black's (in check) are not.
const char* ROOK_FEN = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
const std::vector<std::string> CHECKS = {"a0a9", "d9d8", "a9a8", "d8d7"};

TEST(PgnPositions, QuietPositionsOfAFinishedGameWithItsResult) {
    const PgnReadResult g = read_pgn(pgn_of("", CAPTURES, Outcome::BlackWins));
    ASSERT_TRUE(g.ok) << g.error;
    std::vector<Sample> s = pgn_game_samples(g.game, 7, {.skip_plies = 0});
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0].fen, Position().fen());
    EXPECT_EQ(s[1].fen.substr(0, s[1].fen.find(' ')), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR");
    for (const Sample& x : s) {
        EXPECT_EQ(x.result, 0.0);
        EXPECT_EQ(x.game, 7);
        EXPECT_FALSE(x.score);
    }
    // The first plies are skipped.
    s = pgn_game_samples(g.game, 7, {.skip_plies = 1});
    ASSERT_EQ(s.size(), 1u);
    EXPECT_EQ(position_key(s[0].fen), "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b");

    const PgnReadResult c = read_pgn(pgn_of(ROOK_FEN, CHECKS, Outcome::Draw));
    ASSERT_TRUE(c.ok) << c.error;
    s = pgn_game_samples(c.game, 1, {.skip_plies = 0});
    ASSERT_EQ(s.size(), 2u);
    EXPECT_EQ(s[0].fen, ROOK_FEN);
    EXPECT_EQ(position_key(s[1].fen), "R8/3k5/9/9/9/9/9/9/9/4K4 w");
    EXPECT_EQ(s[1].result, 0.5);
}

TEST(PgnPositions, FilesAreReadWholeRepeatsOnceUnfinishedSkipped) {
    const std::string text = pgn_of("", CAPTURES, Outcome::RedWins) + "\n" + pgn_of(ROOK_FEN, CHECKS, Outcome::Draw) +
                             "\n" + pgn_of("", CAPTURES, Outcome::Draw) + "\n" +
                             pgn_of(ROOK_FEN, CHECKS, Outcome::Ongoing);
    std::unordered_set<std::string> seen;
    std::vector<Sample> out;
    PgnPositionsSummary summary;
    std::string error;
    int next = 100;
    ASSERT_TRUE(read_pgn_positions(text, {.skip_plies = 0}, next, seen, out, summary, error)) << error;
    EXPECT_EQ(next, 104);
    EXPECT_EQ(summary.games, 4);
    EXPECT_EQ(summary.unfinished, 1);
    EXPECT_EQ(summary.samples, 4);
    EXPECT_EQ(summary.repeated, 2);  // the third game repeats the first one's positions
    ASSERT_EQ(out.size(), 4u);
    EXPECT_EQ(out[0].game, 100);
    EXPECT_EQ(out[0].result, 1.0);
    EXPECT_EQ(out[2].game, 101);
    EXPECT_EQ(out[2].result, 0.5);
    // The same position with other move counters is a repeat too.
    EXPECT_EQ(position_key("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 12 40"), position_key(ROOK_FEN));
}

TEST(PgnPositions, AMalformedGameIsReportedWithItsLineAndAddsNothing) {
    const std::string text = pgn_of("", CAPTURES, Outcome::RedWins) + "\n" +
                             "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-H1 1-0\n";
    std::unordered_set<std::string> seen;
    std::vector<Sample> out;
    PgnPositionsSummary summary;
    std::string error;
    int next = 0;
    EXPECT_FALSE(read_pgn_positions(text, {.skip_plies = 0}, next, seen, out, summary, error));
    EXPECT_NE(error.find("line"), std::string::npos) << error;
    EXPECT_TRUE(out.empty());
    EXPECT_TRUE(seen.empty());
    EXPECT_EQ(next, 0);
}

}  // namespace
}  // namespace xq::engine
