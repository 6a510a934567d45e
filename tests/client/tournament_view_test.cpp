// The tournament screen's data: the crosstable from a tournament's games (wins, draws,
// forfeits, byes, rows in standings order), Sonneborn-Berger halved, AI entrants' names in
// both languages, entries, and the session keeping the list and each tournament line.
#include "core/tournament_view.h"

#include <gtest/gtest.h>

#include "core/session.h"
#include "protocol/codec.h"

namespace xq::client {
namespace {

using proto::BoardResult;

proto::Tournament sample() {
    proto::Tournament t;
    t.id = 3;
    t.name = "Club night";
    t.director = "dora";
    t.format = proto::TournamentFormat::RoundRobin;
    t.state = proto::TournamentState::Running;
    t.round = 3;
    t.rounds = 3;
    t.entrants = {{"ann", 0, false}, {"ben", 0, false}, {"AI level 4 #2", 4, false}};
    // Round 1: ann-ben 0-1, the AI's bye; round 2: ben-AI drawn, ann's bye; round 3: the AI
    // against ann, the AI's side absent (red_forfeit: ann wins).
    t.games = {{1, 0, 1, BoardResult::BlackWin}, {1, 2, -1, BoardResult::Bye}, {2, 1, 2, BoardResult::Draw},
               {2, 0, -1, BoardResult::Bye}, {3, 2, 0, BoardResult::RedForfeit}};
    t.standings = {{1, 1, 3, 1, 2, 2, 7}, {0, 2, 4, 0, 1, 3, 4}, {2, 3, 3, 0, 1, 5, 2}};
    return t;
}

TEST(TournamentView, CrosstableRowsFollowTheStandingsWithEveryResult) {
    const Crosstable x = crosstable(sample());
    ASSERT_EQ(x.order, (std::vector<int>{1, 0, 2}));
    // Rows and columns: ben, ann, the AI.
    EXPECT_EQ(x.cells[0], (std::vector<std::string>{"x", "2", "1"}));
    EXPECT_EQ(x.cells[1], (std::vector<std::string>{"0", "x", "+"}));
    EXPECT_EQ(x.cells[2], (std::vector<std::string>{"1", "-", "x"}));
    EXPECT_EQ(x.byes, (std::vector<int>{0, 1, 1}));
}

TEST(TournamentView, TwoGamesBetweenTheSamePairShareACell) {
    proto::Tournament t = sample();
    t.games.push_back({4, 1, 0, BoardResult::DoubleForfeit});
    const Crosstable x = crosstable(t);
    EXPECT_EQ(x.cells[0][1], "2 -");
    EXPECT_EQ(x.cells[1][0], "0 -");
}

TEST(TournamentView, NamesPointsAndEntries) {
    const proto::Tournament t = sample();
    EXPECT_EQ(half_points(7), "3.5");
    EXPECT_EQ(half_points(4), "2");
    EXPECT_EQ(half_points(0), "0");
    EXPECT_EQ(entrant_name(Lang::English, t, 2), "AI level 4 #2");
    EXPECT_EQ(entrant_name(Lang::Chinese, t, 2), "电脑 4 级 #2");
    EXPECT_EQ(entrant_name(Lang::English, t, 0), "ann");
    EXPECT_EQ(entrant_name(Lang::English, t, 9), "?");
    EXPECT_TRUE(entered(t, "ann"));
    EXPECT_FALSE(entered(t, "dora"));
    EXPECT_FALSE(entered(t, "AI level 4 #2"));  // an AI entrant is nobody's entry
    EXPECT_EQ(board_result_text(Lang::English, BoardResult::Draw), "½-½");
    EXPECT_EQ(board_result_text(Lang::Chinese, BoardResult::Bye), "轮空");
    EXPECT_EQ(format_words(Lang::Chinese, proto::TournamentFormat::Swiss), "瑞士制");
    EXPECT_EQ(state_words(Lang::English, proto::TournamentState::Open), "taking entries");
}

TEST(TournamentView, TheSessionKeepsTheListAndEachTournament) {
    ClientState state;
    Session s(state);
    s.handle_line(proto::encode(proto::ServerMessage{proto::Tournaments{
        {proto::TournamentSummary{1, "Old", "eve", proto::TournamentFormat::Swiss, proto::TournamentState::Finished, 3, 3, 4}}}}));
    ASSERT_EQ(state.tournaments.list.size(), 1u);
    s.handle_line(proto::encode(proto::ServerMessage{sample()}));
    ASSERT_NE(state.tournaments.find(3), nullptr);
    EXPECT_EQ(state.tournaments.find(3)->games.size(), 5u);
    ASSERT_EQ(state.tournaments.list.size(), 2u);  // the line adds it to the list
    EXPECT_EQ(state.tournaments.list[1].entrants, 3);
    s.join_tournament(3);
    s.arbiter(12, proto::ArbiterKind::Pause);
    const auto out = s.take_outbox();
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0], "{\"tournament\":3,\"type\":\"join_tournament\"}\n");
    EXPECT_NE(out[1].find("\"action\":\"pause\""), std::string::npos);
    EXPECT_NE(out[1].find("\"table\":12"), std::string::npos);
}

TEST(TournamentView, TheNewTournamentFormChecksTheForfeitTimeAndTheDelay) {
    EXPECT_EQ(tournament_form_problem(120, 0), Str::Ok);
    EXPECT_EQ(tournament_form_problem(1, 20), Str::Ok);
    EXPECT_EQ(tournament_form_problem(3600, 0), Str::Ok);
    EXPECT_EQ(tournament_form_problem(0, 0), Str::TourneyProblemForfeit);
    EXPECT_EQ(tournament_form_problem(3601, 0), Str::TourneyProblemForfeit);
    EXPECT_EQ(tournament_form_problem(0, 21), Str::TourneyProblemForfeit);  // the first problem first
    EXPECT_EQ(tournament_form_problem(60, 21), Str::TourneyProblemDelay);
    EXPECT_EQ(tournament_form_problem(60, -1), Str::TourneyProblemDelay);
    // Both languages word them.
    EXPECT_NE(std::string(tr(Lang::English, Str::TourneyProblemDelay)).find("0 to 20"), std::string::npos);
    EXPECT_NE(std::string(tr(Lang::Chinese, Str::TourneyProblemForfeit)).find("1 到 3600"), std::string::npos);
    // The form's numbers go out with the request and read back as sent.
    ClientState state;
    Session s(state);
    s.create_tournament("Club", proto::TournamentFormat::Swiss, 4, {3}, 300, 6);
    const auto out = s.take_outbox();
    ASSERT_EQ(out.size(), 1u);
    const auto msg = proto::decode_client(out[0].substr(0, out[0].size() - 1));
    ASSERT_TRUE(msg.ok()) << out[0];
    const auto* c = std::get_if<proto::CreateTournament>(&msg.value());
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->forfeit_seconds, 300);
    EXPECT_EQ(c->spectator_delay, 6);
    EXPECT_EQ(c->rounds, 4);
    ASSERT_EQ(c->ai.size(), 1u);
    EXPECT_EQ(c->ai[0].level, 3);
}

}  // namespace
}  // namespace xq::client
