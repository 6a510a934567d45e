// PGN: write/read round trips of random games in all three notations, a hand-written file
// with comments and a FEN tag, several games in one file, and malformed files.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "xiangqi/game.h"
#include "xiangqi/pgn.h"

namespace {

using namespace xq;

Move iccs(std::string_view s) {
    return Move(square_from_string(s.substr(0, 2)), square_from_string(s.substr(2, 2)));
}

// A random game: up to max_plies random legal moves, or until the game ends.
Game random_game(const Position& start, std::mt19937& rng, int max_plies) {
    Game g(start);
    for (int i = 0; i < max_plies && !g.over(); ++i) {
        const MoveList moves = g.legal_moves();
        if (moves.empty()) break;
        g.play(moves[int(rng() % moves.size())]);
    }
    return g;
}

const PgnTags TAGS = {{"Event", "LAN club \"open\""}, {"Site", "Room 2"}, {"Date", "2026-11-29"},
                      {"Round", "3"}, {"Red", "Lin"}, {"Black", "王"}, {"TimeControl", "600+5"}};

TEST(Pgn, WritesTagsInOrder) {
    Game g;
    ASSERT_TRUE(g.play(iccs("h2e2")));
    ASSERT_TRUE(g.play(iccs("h9g7")));
    const std::string text = write_pgn(g, TAGS, Notation::Chinese);
    const std::string expected =
        "[Game \"Chinese Chess\"]\n"
        "[Event \"LAN club \\\"open\\\"\"]\n"
        "[Site \"Room 2\"]\n"
        "[Date \"2026.11.29\"]\n"
        "[Round \"3\"]\n"
        "[Red \"Lin\"]\n"
        "[Black \"王\"]\n"
        "[Result \"*\"]\n"
        "[TimeControl \"600+5\"]\n"
        "\n"
        "1. 炮二平五 马8进7 *\n";
    EXPECT_EQ(text, expected);
    const std::string wxf = write_pgn(g, {}, Notation::Wxf);
    EXPECT_NE(wxf.find("[Event \"?\"]\n"), std::string::npos);
    EXPECT_NE(wxf.find("[Date \"????.??.??\"]\n"), std::string::npos);
    EXPECT_NE(wxf.find("[Format \"WXF\"]\n"), std::string::npos);
    EXPECT_NE(wxf.find("1. C2.5 H8+7 *"), std::string::npos);
    const std::string iccs_text = write_pgn(g, {}, Notation::Iccs);
    EXPECT_NE(iccs_text.find("[Format \"ICCS\"]\n"), std::string::npos);
    EXPECT_NE(iccs_text.find("1. H2-E2 H9-G7 *"), std::string::npos);
    EXPECT_EQ(iccs_text.find("[FEN"), std::string::npos) << "no FEN tag for the standard start";
}

TEST(Pgn, FinishedGameCarriesResultAndReason) {
    Game g;
    ASSERT_TRUE(g.play(iccs("h2e2")));
    g.finish(Outcome::RedWins, EndReason::Resignation, "Black resigns");
    const std::string text = write_pgn(g, {{"Red", "A"}}, Notation::Chinese);
    EXPECT_NE(text.find("[Result \"1-0\"]\n[Termination \"Black resigns\"]\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\n1. 炮二平五 1-0\n"), std::string::npos) << text;
    const PgnReadResult r = read_pgn(text);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.game.result, Outcome::RedWins);
    EXPECT_EQ(r.game.tag("Termination"), "Black resigns");
}

TEST(Pgn, RandomGamesRoundTripInEveryNotation) {
    std::mt19937 rng(4242);
    int games = 0, plies = 0, finished = 0;
    for (int i = 0; i < 24; ++i) {
        Position start;
        if (i % 4 == 3) {  // some games start from a set-up position with Black to move
            ASSERT_EQ(start.set_fen("r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2"),
                      FenError::None);
        }
        const Game g = random_game(start, rng, 60 + int(rng() % 200));
        finished += g.over();
        for (Notation n : {Notation::Iccs, Notation::Wxf, Notation::Chinese}) {
            const std::string text = write_pgn(g, TAGS, n);
            const PgnReadResult r = read_pgn(text);
            ASSERT_TRUE(r.ok) << "line " << r.line << ": " << r.error << "\n" << text;
            EXPECT_EQ(r.game.moves, g.moves()) << text;
            EXPECT_EQ(r.game.start.fen(), g.start_position().fen());
            EXPECT_EQ(r.game.result, g.result().outcome);
            EXPECT_EQ(r.game.tag("Red"), "Lin");
            EXPECT_EQ(r.game.tag("Black"), "王");
            EXPECT_EQ(r.game.tag("Event"), "LAN club \"open\"");
            EXPECT_EQ(r.game.tag("Date"), "2026.11.29");
            EXPECT_EQ(r.game.tag("TimeControl"), "600+5");
            EXPECT_EQ(r.game.comments.size(), g.moves().size());
            EXPECT_EQ(r.game.tag("FEN").empty(), i % 4 != 3);
            // Writing what was read gives the same text.
            EXPECT_EQ(write_pgn(r.game, n), text);
        }
        ++games;
        plies += g.ply();
    }
    EXPECT_EQ(games, 24);
    EXPECT_GT(plies, 1500);
    EXPECT_GE(finished, 1) << "some random games should reach a decided end";
}

TEST(Pgn, HandWrittenFileWithCommentsAndFen) {
    const std::string text =
        "\xEF\xBB\xBF[Game \"Chinese Chess\"]\n"
        "[Event \"Club night\"]\n"
        "[Red \"A\"]\n"
        "[Black \"B\"]\n"
        "[Result \"1-0\"]\n"
        "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\"]\n"
        "\n"
        "{Red has opened with the central cannon.}\n"
        "1... 马8进7 {the usual\n"
        "reply} 2. 马二进三 車9平8 ; Black develops the rook\n"
        "3. 车一平二 $1 (3. 兵七进一 {a variation (nested) is skipped}) 炮8进4 !?\n"
        "4.兵三进一 ... 炮2平5 1-0 {Black resigned.}\n";
    const PgnReadResult r = read_pgn(text);
    ASSERT_TRUE(r.ok) << r.line << ": " << r.error;
    const PgnGame& g = r.game;
    EXPECT_EQ(g.tag("Game"), "Chinese Chess");
    EXPECT_EQ(g.tag("Event"), "Club night");
    EXPECT_EQ(g.tags.size(), 6u);
    EXPECT_EQ(g.start.side_to_move(), BLACK);
    EXPECT_EQ(g.result, Outcome::RedWins);
    const std::vector<Move> expected = {iccs("h9g7"), iccs("h0g2"), iccs("i9h9"), iccs("i0h0"),
                                        iccs("h7h3"), iccs("g3g4"), iccs("b7e7")};
    EXPECT_EQ(g.moves, expected);
    EXPECT_EQ(g.pre_comment, "Red has opened with the central cannon.");
    ASSERT_EQ(g.comments.size(), expected.size());
    EXPECT_EQ(g.comments[0], "the usual\nreply");
    EXPECT_EQ(g.comments[2], "Black develops the rook");
    EXPECT_EQ(g.comments[1], "");
    EXPECT_EQ(g.comments[6], "Black resigned.");

    // Written again (WXF), then read again: same game, same comments.
    const std::string again = write_pgn(g, Notation::Wxf);
    EXPECT_NE(again.find("[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\"]"),
              std::string::npos);
    EXPECT_NE(again.find("{Red has opened with the central cannon.} 1... H8+7 {the usual"), std::string::npos)
        << again;
    const PgnReadResult back = read_pgn(again);
    ASSERT_TRUE(back.ok) << back.error;
    EXPECT_EQ(back.game.moves, expected);
    EXPECT_EQ(back.game.comments, g.comments);
    EXPECT_EQ(back.game.pre_comment, g.pre_comment);
}

TEST(Pgn, SeveralGamesInOneFile) {
    const std::string text =
        "[Game \"Chinese Chess\"]\n[Event \"one\"]\n\n1. 炮二平五 马8进7 1/2-1/2 {agreed}\n\n"
        "[Game \"Chinese Chess\"]\n[Event \"two\"]\n\n1. 炮二平五 马8进7 2. 炮八平九 0-1\n\n"
        "[Game \"Chinese Chess\"]\n[Event \"three\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-G7\n"
        "[Event \"four, no result token\"]\n\n1. C2.5\n";
    const auto games = read_pgn_all(text);
    ASSERT_EQ(games.size(), 4u);
    EXPECT_TRUE(games[0].ok);
    EXPECT_EQ(games[0].game.result, Outcome::Draw);
    EXPECT_EQ(games[0].game.tag("Event"), "one");
    EXPECT_EQ(games[0].game.comments.back(), "agreed");
    EXPECT_TRUE(games[1].ok) << games[1].error;
    EXPECT_EQ(games[1].game.moves.size(), 3u);
    EXPECT_EQ(games[1].game.result, Outcome::BlackWins);
    EXPECT_TRUE(games[2].ok);
    EXPECT_EQ(games[2].game.moves.size(), 2u);
    EXPECT_EQ(games[2].game.result, Outcome::Ongoing);
    EXPECT_TRUE(games[3].ok);
    EXPECT_EQ(games[3].game.tag("Event"), "four, no result token");
    EXPECT_EQ(games[3].game.moves, std::vector<Move>{iccs("h2e2")});
    // read_pgn gives the first game only.
    EXPECT_EQ(read_pgn(text).game.tag("Event"), "one");
}

TEST(Pgn, BrokenGameInTheMiddleDoesNotHideTheOthers) {
    const std::string text =
        "[Event \"good\"]\n\n1. 炮二平五 马8进7 *\n\n"
        "[Event \"bad\"]\n[Red \"x\"]\n\n1. 炮二平五 马8进7\n2. 炮八平九 马2进3\n3. 炮九进九 *\n\n"
        "[Event \"good again\"]\n\n1. h2e2 *\n";
    const auto games = read_pgn_all(text);
    ASSERT_EQ(games.size(), 3u);
    EXPECT_TRUE(games[0].ok);
    EXPECT_FALSE(games[1].ok);
    EXPECT_EQ(games[1].line, 10);
    EXPECT_EQ(games[1].error.rfind("move 3 (炮九进九): ", 0), 0u) << games[1].error;
    EXPECT_TRUE(games[2].ok);
    EXPECT_EQ(games[2].game.tag("Event"), "good again");
}

void expect_bad(const std::string& text, int line, std::string_view error_start) {
    const PgnReadResult r = read_pgn(text);
    EXPECT_FALSE(r.ok) << text;
    EXPECT_EQ(r.line, line) << r.error;
    EXPECT_EQ(r.error.substr(0, error_start.size()), error_start) << r.error;
}

TEST(Pgn, MalformedFiles) {
    expect_bad("", 1, "no game found");
    expect_bad("   \n\n", 1, "no game found");
    expect_bad("[Event \"x\"]\n[Site \"never closed]\n\n1. 炮二平五 *\n", 2, "unterminated tag [Site]");
    expect_bad("[Event \"x\"\n\n1. 炮二平五 *\n", 1, "unterminated tag [Event]: missing ']'");
    expect_bad("[Event x]\n", 1, "tag [Event] has no quoted value");
    expect_bad("[Event \"x\"]\n\n1. 炮二平五 {a comment\nthat never\nends\n", 3, "unterminated comment");
    expect_bad("[Event \"x\"]\n\n1. 炮二平五 (1. 炮八平五\n", 3, "unterminated variation");
    expect_bad("[Event \"x\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w - - 0 1\"]\n\n*\n",
               2, "bad FEN tag: ");
    expect_bad("[Event \"x\"]\n[FEN \"not a fen\"]\n\n*\n", 2, "bad FEN tag: ");
    expect_bad("[Game \"Chess\"]\n\n1. e4 e5 *\n", 1, "not a Xiangqi game");
    expect_bad("[Event \"x\"]\n\n1. 炮二平五 马8进7\n2. 马二进三 车9平8\n3. 车一平二 马2进3\n"
               "4. 兵七进一 卒7进1\n5. 炮七平八 *\n", 7, "move 5 (炮七平八): no red cannon on file 7");
    expect_bad("1. 炮二平五 炮二进九 *\n", 1, "move 1... (炮二进九): ");
    expect_bad("1. h2e2 h2e2 *\n", 1, "move 1... (h2e2): no piece on h2");
    expect_bad("1. 炮二平五 \xFF\xFE *\n", 1, "move 1... (unreadable bytes): ");
    expect_bad("1. 炮二平五 ) *\n", 1, "')' without '('");
    const PgnReadResult r = read_pgn("[Format \"WXF\"]\n\n1. C2.5 H8+7 2. X1.2 *\n");
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.error, "move 2 (X1.2): unknown piece letter 'X' (K A E H R C P, also B and N)");
}

TEST(Pgn, GarbageNeverCrashes) {
    std::mt19937 rng(77);
    const std::string pieces[] = {"[", "]", "\"", "{", "}", "(", ")", ";", "1.", "1...", "炮二平五", "马8进7",
                                  "h2e2", "C2.5", "\n", " ", "*", "1-0", "[Event \"", "\xE7", "\xFF", "$3", "%"};
    int ok = 0;
    for (int i = 0; i < 3000; ++i) {
        std::string text;
        const int n = int(rng() % 40);
        for (int k = 0; k < n; ++k) text += pieces[rng() % std::size(pieces)];
        for (const PgnReadResult& r : read_pgn_all(text)) {
            ok += r.ok;
            if (!r.ok) {
                EXPECT_FALSE(r.error.empty());
            }
            EXPECT_EQ(r.game.comments.size(), r.game.moves.size());
        }
    }
    EXPECT_GT(ok, 0);
}

}  // namespace
