// The protocol session and the game archive (list_games, get_game, their errors and words)
// and the analysis of a game (progress, result, cancel, a game not in the archive).
#include <gtest/gtest.h>

#include "session_fixture.h"

using namespace xq;
using namespace xq::client;

namespace {

proto::GameSummary summary(std::int64_t id, const char* red, const char* black) {
    proto::GameSummary g;
    g.id = id;
    g.red = red;
    g.black = black;
    g.result = Outcome::RedWins;
    g.reason = "checkmate";
    g.plies = 2;
    g.started = 1764400000000;
    return g;
}

}  // namespace

TEST_F(SessionTest, ArchiveListIsStoredAndPagedWithBefore) {
    session.list_games("alice");
    auto out = session.take_outbox();
    ASSERT_EQ(out.size(), 1u);
    auto d = proto::decode_client(out[0].substr(0, out[0].size() - 1));
    ASSERT_TRUE(d.ok());
    const auto* first = std::get_if<proto::ListGames>(&d.value());
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->player, "alice");
    EXPECT_EQ(first->before, 0);
    EXPECT_TRUE(state.archive.loading);

    proto::Games g;
    g.games = {summary(42, "alice", "bob"), summary(40, "carol", "alice")};
    g.games[0].red_rating = 1612;  // a rated game; the other is unrated
    g.games[0].black_rating = 1388;
    g.more = true;
    session.handle_line(proto::encode(g));
    ASSERT_EQ(state.archive.games.size(), 2u);
    EXPECT_EQ(state.archive.games[0].id, 42);
    EXPECT_EQ(state.archive.games[0].red_rating, std::optional<int>(1612));
    EXPECT_EQ(state.archive.games[0].black_rating, std::optional<int>(1388));
    EXPECT_EQ(state.archive.games[1].red_rating, std::nullopt);
    EXPECT_EQ(state.archive.games[1].black_rating, std::nullopt);
    EXPECT_EQ(state.archive.games[1].black, "alice");
    EXPECT_EQ(state.archive.games[0].reason, "checkmate");
    EXPECT_TRUE(state.archive.more);
    EXPECT_FALSE(state.archive.loading);
    EXPECT_EQ(state.archive.before(), 40);

    session.list_older_games();
    out = session.take_outbox();
    ASSERT_EQ(out.size(), 1u);
    d = proto::decode_client(out[0].substr(0, out[0].size() - 1));
    ASSERT_TRUE(d.ok());
    const auto* older = std::get_if<proto::ListGames>(&d.value());
    ASSERT_NE(older, nullptr);
    EXPECT_EQ(older->before, 40);
    EXPECT_EQ(older->player, "alice");

    proto::Games g2;
    g2.games = {summary(12, "alice", "dave")};
    g2.more = false;
    session.handle_line(proto::encode(g2));
    ASSERT_EQ(state.archive.games.size(), 3u);  // appended, not replaced
    EXPECT_EQ(state.archive.games[2].id, 12);
    EXPECT_FALSE(state.archive.more);
    session.list_older_games();  // nothing older: nothing sent
    EXPECT_TRUE(session.take_outbox().empty());

    // A fresh search replaces the list.
    session.list_games();
    session.take_outbox();
    proto::Games g3;
    g3.games = {summary(50, "eve", "frank")};
    session.handle_line(proto::encode(g3));
    ASSERT_EQ(state.archive.games.size(), 1u);
    EXPECT_EQ(state.archive.games[0].red, "eve");
}

TEST_F(SessionTest, ArchiveRecordBecomesAReviewableGame) {
    session.get_game(42);
    EXPECT_EQ(sent_types(), std::vector<std::string>{"get_game"});
    const std::string line =
        R"({"type":"game_record","game":{"id":42,"red":"alice","black":"bob","result":"1-0","reason":"checkmate",)"
        R"("plies":3,"started":1764400000000,"ended":1764400900000},)"
        R"("start_fen":"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",)"
        R"("moves":["h2e2","h9g7","h0g2"],"text":"Black is checkmated"})";
    session.handle_line(line);
    auto cues = session.take_cues();
    ASSERT_EQ(cues.size(), 1u);
    EXPECT_EQ(cues[0].kind, Cue::Kind::ArchiveGame);
    ASSERT_TRUE(state.archive.opened);
    const ArchivedGame& a = *state.archive.opened;
    EXPECT_EQ(a.entry.id, 42);
    EXPECT_EQ(a.entry.result, Outcome::RedWins);
    ASSERT_EQ(a.moves.size(), 3u);
    EXPECT_EQ(a.moves[0].iccs, "h2e2");
    EXPECT_EQ(a.moves[0].chinese, "炮二平五");
    EXPECT_EQ(a.moves[2].iccs, "h0g2");
    EXPECT_EQ(a.game.start_position().fen(), std::string(START_FEN));
    EXPECT_EQ(a.text, "Black is checkmated");
    EXPECT_FALSE(state.archive.loading);
}

TEST_F(SessionTest, ArchiveRecordWithAnIllegalMoveIsRefused) {
    const std::string line =
        R"({"type":"game_record","game":{"id":7,"red":"a","black":"b","result":"*","plies":2,"started":1},)"
        R"("start_fen":"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",)"
        R"("moves":["h2e2","h2e2"]})";
    session.handle_line(line);
    auto cues = session.take_cues();
    ASSERT_EQ(cues.size(), 1u);
    EXPECT_EQ(cues[0].kind, Cue::Kind::Error);
    EXPECT_EQ(cues[0].str, Str::ArchiveBadRecord);
    EXPECT_NE(cues[0].text.find("move 2"), std::string::npos) << cues[0].text;
    EXPECT_FALSE(state.archive.opened);

    // A bad start FEN too.
    session.handle_line(R"({"type":"game_record","game":{"id":8,"red":"a","black":"b","result":"*","plies":0,"started":1},)"
                        R"("start_fen":"not a fen","moves":[]})");
    cues = session.take_cues();
    ASSERT_EQ(cues.size(), 1u);
    EXPECT_EQ(cues[0].str, Str::ArchiveBadRecord);
    EXPECT_FALSE(state.archive.opened);
}

TEST_F(SessionTest, ArchiveErrorsHaveTheirOwnWords) {
    session.list_games();
    session.take_outbox();
    session.handle_line(R"({"type":"error","code":"not_allowed","message":"no archive","request":"list_games"})");
    EXPECT_FALSE(state.archive.loading);
    auto cues = session.take_cues();
    ASSERT_EQ(cues.size(), 1u);
    EXPECT_EQ(error_code_string(cues[0].code, cues[0].request), Str::ErrNoArchive);
    EXPECT_EQ(error_code_string("not_allowed", "get_game"), Str::ErrNoArchive);
    EXPECT_EQ(error_code_string("no_such_game", "get_game"), Str::ErrNoSuchGame);
    EXPECT_EQ(server_error_text(Lang::Chinese, "no_such_game", "get_game", ""), "服务器的棋谱库中没有这盘棋");
    EXPECT_EQ(server_error_text(Lang::English, "not_allowed", "list_games", ""), "This server keeps no game archive");
    // The server's English message is not repeated after our own words for it.
    EXPECT_EQ(server_error_text(Lang::English, "shutting_down", "", "the server is shutting down"),
              "The server is shutting down");
    EXPECT_EQ(server_error_text(Lang::English, "shutting_down", "", "back at 22:00"), "The server is shutting down: back at 22:00");
}

TEST(ArchiveText, ResultInWordsAndDate) {
    ArchiveEntry e;
    e.result = Outcome::BlackWins;
    e.reason = "resignation";
    EXPECT_EQ(archive_result_text(Lang::English, e), "Black wins · resignation");
    EXPECT_EQ(archive_result_text(Lang::Chinese, e), std::string(tr(Lang::Chinese, Str::BlackWins)) + " · " +
                                                         tr(Lang::Chinese, Str::EndResignation));
    e.result = Outcome::Ongoing;
    e.reason.clear();
    EXPECT_EQ(archive_result_text(Lang::English, e), "Unfinished");
    EXPECT_EQ(archive_date_text(0), "");
    const std::string d = archive_date_text(1764400000000);
    ASSERT_EQ(d.size(), 16u) << d;
    EXPECT_EQ(d.substr(0, 4), "2025");
    EXPECT_EQ(d[4], '-');
    EXPECT_EQ(d[13], ':');
}

// ---- Analysis (analyse_game) ------------------------------------------------------------

TEST_F(SessionTest, AnalysisProgressThenTheResultBecomeTheAnalysisState) {
    session.analyse_game(42);
    EXPECT_EQ(sent_types(), std::vector<std::string>{"analyse_game"});
    EXPECT_TRUE(state.analysis.running);
    EXPECT_EQ(state.analysis.game_id, 42);
    feed(proto::AnalysisProgress{42, 2, 5, false});
    EXPECT_EQ(state.analysis.done, 2);
    EXPECT_EQ(state.analysis.total, 5);
    feed(proto::AnalysisProgress{41, 4, 9, false});  // another game's (a cancelled one's last word)
    EXPECT_EQ(state.analysis.done, 2);
    feed(proto::Analysis{42, 30000, {10, 20, -300, -310, -305}, {"h2e2", "h9g7", "b0c2", "g7e6", ""}});
    EXPECT_FALSE(state.analysis.running);
    ASSERT_EQ(state.analysis.evals.size(), 5u);
    ASSERT_EQ(state.analysis.best.size(), 5u);
    EXPECT_EQ(state.analysis.evals[2], -300);
    EXPECT_EQ(state.analysis.best[0], Move(square_from_string("h2"), square_from_string("e2")));
    EXPECT_EQ(state.analysis.best[3], Move(square_from_string("g7"), square_from_string("e6")));
    EXPECT_FALSE(state.analysis.best[4]);
    EXPECT_TRUE(state.analysis.error.empty());
}

TEST_F(SessionTest, AnalysisStopsOnCancelRefusalOrANewConnection) {
    session.analyse_game(42);
    session.take_outbox();
    session.cancel_analysis();
    EXPECT_EQ(sent_types(), std::vector<std::string>{"cancel_analysis"});
    feed(proto::AnalysisProgress{42, 3, 5, true});
    EXPECT_FALSE(state.analysis.running);
    session.cancel_analysis();  // nothing runs: nothing sent
    EXPECT_TRUE(sent_types().empty());

    session.analyse_game(43);
    session.take_outbox();
    proto::Error e;
    e.code = proto::ErrorCode::NotAllowed;
    e.message = "the server runs 3 analyses already; try again later";
    e.request = "analyse_game";
    feed(e);
    EXPECT_FALSE(state.analysis.running);
    EXPECT_EQ(state.analysis.error, e.message);
    EXPECT_EQ(state.analysis.error_code, "not_allowed");  // the panel words it by its code

    // The server cancels an analysis when the connection is lost: a new welcome ends ours.
    session.analyse_game(44);
    session.take_outbox();
    proto::Welcome w;
    w.name = "alice";
    w.server = "test";
    feed(w);
    EXPECT_FALSE(state.analysis.running);
}

TEST_F(SessionTest, AGameNotInTheArchiveIsSentWithItsMovesAndAnsweredUnderIdZero) {
    // A PGN file opened in Review: analyse_game with id 0, its start and moves in ICCS.
    const Position start;
    const std::vector<Move> moves{Move(square_from_string("h2"), square_from_string("e2")),
                                  Move(square_from_string("h9"), square_from_string("g7"))};
    session.analyse_moves(start, moves);
    const auto lines = session.take_outbox();
    ASSERT_EQ(lines.size(), 1u);
    std::string line = lines[0];
    if (!line.empty() && line.back() == '\n') line.pop_back();
    auto d = proto::decode_client(line);
    ASSERT_TRUE(d.ok()) << line;
    const auto* ask = std::get_if<proto::AnalyseGame>(&d.value());
    ASSERT_NE(ask, nullptr) << line;
    EXPECT_EQ(ask->id, 0);
    EXPECT_EQ(ask->start_fen, start.fen());
    EXPECT_EQ(ask->moves, (std::vector<std::string>{"h2e2", "h9g7"}));
    EXPECT_TRUE(state.analysis.given);
    EXPECT_EQ(state.analysis.moves, moves);
    feed(proto::AnalysisProgress{0, 1, 3, false});
    EXPECT_EQ(state.analysis.done, 1);
    feed(proto::Analysis{0, 30000, {20, -30, 25}, {"h2e2", "h9g7", ""}});
    EXPECT_FALSE(state.analysis.running);
    EXPECT_EQ(state.analysis.evals, (std::vector<int>{20, -30, 25}));
    // An archived game's analysis asked after it: a late id 0 answer is not taken for it.
    session.analyse_game(42);
    session.take_outbox();
    feed(proto::Analysis{0, 30000, {1, 2, 3}, {"", "", ""}});
    EXPECT_TRUE(state.analysis.running);
    EXPECT_TRUE(state.analysis.evals.empty());
}
