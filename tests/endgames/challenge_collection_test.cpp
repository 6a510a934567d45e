// The endgame collection as shipped (size, ids, kinds of endings, legal starts) and the
// parser's refusals of bad lines.
#include <gtest/gtest.h>

#include <set>

#include "endgames/challenge_collection.h"
#include "xiangqi/position.h"

namespace xq::endgames {
namespace {

TEST(ChallengeCollection, TheBuiltInCollectionParsesWhole) {
    const ParseResult r = parse_collection(collection_text());
    EXPECT_EQ(r.error, "");
    EXPECT_EQ(r.challenges.size(), challenges().size());
}

TEST(ChallengeCollection, HoldsAtLeastFortyPositionsOfManyKinds) {
    const auto& all = challenges();
    EXPECT_GE(all.size(), 40u);
    std::set<std::string> kinds;
    int wins = 0, draws = 0, black_to_move = 0;
    for (const Challenge& c : all) {
        kinds.insert(c.name_en);
        (c.verdict == Verdict::Win ? wins : draws) += 1;
        Position pos;
        ASSERT_EQ(pos.set_fen(c.fen), FenError::None) << c.id;
        if (pos.side_to_move() == BLACK) ++black_to_move;
    }
    EXPECT_GE(kinds.size(), 15u);
    EXPECT_GE(wins, 30);
    EXPECT_GE(draws, 5);
    EXPECT_GE(black_to_move, 3);
}

TEST(ChallengeCollection, EveryStartHasALegalMoveAndIsNotDecided) {
    for (const Challenge& c : challenges()) {
        Position pos;
        ASSERT_EQ(pos.set_fen(c.fen), FenError::None) << c.id;
        MoveList moves;
        pos.generate_legal(moves);
        EXPECT_GT(moves.size(), 0) << c.id << " has no legal move";
        EXPECT_FALSE(c.name_en.empty()) << c.id;
        EXPECT_FALSE(c.name_zh.empty()) << c.id;
    }
}

TEST(ChallengeCollection, FindsByIdAndOnlyByAnExactId) {
    ASSERT_FALSE(challenges().empty());
    const Challenge& first = challenges().front();
    const Challenge* found = find_challenge(first.id);
    ASSERT_NE(found, nullptr);
    EXPECT_EQ(found->fen, first.fen);
    EXPECT_EQ(find_challenge(""), nullptr);
    EXPECT_EQ(find_challenge(first.id + "x"), nullptr);
}

TEST(ChallengeCollection, ReadsWinsDrawsCommentsAndBlankLines) {
    const ParseResult r = parse_collection(
        "# a comment\n"
        "\n"
        "a-1 | A rook against two advisors | 单车对双士 | 3ak4/4a4/9/9/9/9/9/9/9/R2K5 w - - 0 1 | win 3\r\n"
        "b-2|A pawn against an advisor|单兵对单士|5k3/9/3a5/9/4P4/9/9/4K4/9/9 b - - 0 1|draw");
    ASSERT_EQ(r.error, "");
    ASSERT_EQ(r.challenges.size(), 2u);
    EXPECT_EQ(r.challenges[0].id, "a-1");
    EXPECT_EQ(r.challenges[0].name_zh, "单车对双士");
    EXPECT_EQ(r.challenges[0].verdict, Verdict::Win);
    EXPECT_EQ(r.challenges[0].mate_in, 3);
    EXPECT_EQ(r.challenges[1].verdict, Verdict::Draw);
    EXPECT_EQ(r.challenges[0].side_to_move, RED);
    EXPECT_EQ(r.challenges[1].side_to_move, BLACK);
    EXPECT_EQ(r.challenges[1].fen, "5k3/9/3a5/9/4P4/9/9/4K4/9/9 b - - 0 1");
}

TEST(ChallengeCollection, RefusesBadLinesWithTheLineAndTheReason) {
    const std::string fen = "3ak4/4a4/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    struct Case {
        std::string text, error;
    };
    const std::vector<Case> cases = {
        {"a | b | c | " + fen, "line 1: 5 fields expected, separated by '|'"},
        {"A-1 | b | c | " + fen + " | win 3", "line 1: bad id 'A-1' (a-z, 0-9 and '-', at most 32)"},
        {"a | b | c | " + fen + " | win 3\n# x\na | b | c | " + fen + " | draw", "line 3: id 'a' repeated"},
        {"a |  | c | " + fen + " | win 3", "line 1: a name is empty"},
        {"a | b | c | " + fen + " | win", "line 1: verdict must be 'win N' (1-99) or 'draw', not 'win'"},
        {"a | b | c | " + fen + " | win 0", "line 1: verdict must be 'win N' (1-99) or 'draw', not 'win 0'"},
        {"a | b | c | " + fen + " | win 3x", "line 1: verdict must be 'win N' (1-99) or 'draw', not 'win 3x'"},
        {"a | b | c | " + fen + " | lose", "line 1: verdict must be 'win N' (1-99) or 'draw', not 'lose'"},
    };
    for (const Case& c : cases) {
        const ParseResult r = parse_collection(c.text);
        EXPECT_EQ(r.error, c.error) << c.text;
    }
    // The rules code judges the FEN: kings facing on an open file, an elephant off its points.
    const ParseResult facing = parse_collection("a | b | c | 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 | draw");
    EXPECT_EQ(facing.error.rfind("line 1: bad FEN: ", 0), 0u) << facing.error;
    const ParseResult elephant = parse_collection("a | b | c | 4k4/9/9/9/4b4/9/9/9/9/3K5 w - - 0 1 | draw");
    EXPECT_EQ(elephant.error.rfind("line 1: bad FEN: ", 0), 0u) << elephant.error;
}

}  // namespace
}  // namespace xq::endgames
