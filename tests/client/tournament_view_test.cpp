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

proto::TournamentPgn page(const std::string& whole, std::int64_t offset, std::size_t length, const std::string& digest) {
    proto::TournamentPgn p;
    p.tournament = 3;
    p.notation = proto::PgnNotation::Chinese;
    p.offset = offset;
    p.total = std::int64_t(whole.size());
    p.digest = digest;
    p.text = whole.substr(std::size_t(offset), length);
    p.more = std::size_t(offset) + p.text.size() < whole.size();
    return p;
}

TEST(TournamentView, ThePgnIsFetchedPageByPageAndJoinedInOrder) {
    const std::string whole = "[Event \"Club night\"]\n[Site \"LAN\"]\n\n1. 炮二平五 马8进7 1-0\n";
    TournamentPgnFetch f;
    const auto first = f.start(3, proto::PgnNotation::Chinese);
    EXPECT_EQ(first.tournament, 3u);
    EXPECT_EQ(first.offset, 0);
    EXPECT_EQ(first.limit, int(proto::TOURNAMENT_PGN_PAGE_BYTES));
    EXPECT_EQ(f.status(), TournamentPgnFetch::Status::Fetching);
    std::int64_t at = 0;
    int pages = 0;
    for (;;) {
        // Pages of 10 bytes (the server cuts before a character that does not fit whole:
        // here the test cuts anywhere, the bytes join the same).
        const auto next = f.take(page(whole, at, 10, "d1"));
        ++pages;
        if (!next) break;
        EXPECT_EQ(next->offset, at + 10);
        EXPECT_EQ(next->notation, proto::PgnNotation::Chinese);
        at = next->offset;
    }
    EXPECT_EQ(pages, int((whole.size() + 9) / 10));
    EXPECT_EQ(f.status(), TournamentPgnFetch::Status::Done);
    EXPECT_EQ(f.text(), whole);
    // A stray page after the end changes nothing.
    EXPECT_FALSE(f.take(page(whole, 0, 10, "d1")));
    EXPECT_EQ(f.text(), whole);
}

TEST(TournamentView, APgnThatChangesWhileFetchedStartsAgainThenGivesUp) {
    const std::string before = "[Event \"A\"]\n1. h2e2 h9g7 1-0\n", after = "[Event \"A\"]\n1. h2e2 h9g7 1-0\n\n1. c3c4 0-1\n";
    TournamentPgnFetch f;
    f.start(3, proto::PgnNotation::Chinese);
    auto next = f.take(page(before, 0, 12, "old"));
    ASSERT_TRUE(next);
    // Another tournament's page, or a stale offset: ignored, the fetch waits on.
    proto::TournamentPgn other = page(before, 12, 12, "old");
    other.tournament = 4;
    EXPECT_FALSE(f.take(other));
    EXPECT_FALSE(f.take(page(before, 5, 12, "old")));
    EXPECT_EQ(f.status(), TournamentPgnFetch::Status::Fetching);
    // A result came in: the next page has another digest; the fetch starts again from 0.
    next = f.take(page(after, 12, 12, "new"));
    ASSERT_TRUE(next);
    EXPECT_EQ(next->offset, 0);
    EXPECT_EQ(f.restarts(), 1);
    for (std::int64_t at = 0; next; at = next->offset) next = f.take(page(after, at, 12, "new"));
    EXPECT_EQ(f.status(), TournamentPgnFetch::Status::Done);
    EXPECT_EQ(f.text(), after);  // nothing of the old text is left in it
    // A text that keeps changing: after MAX_RESTARTS the fetch fails without a server error.
    f.start(3, proto::PgnNotation::Chinese);
    for (int i = 0; i <= TournamentPgnFetch::MAX_RESTARTS; ++i) {
        ASSERT_TRUE(f.take(page(before, 0, 12, "v" + std::to_string(i))));
        next = f.take(page(before, 12, 12, "w" + std::to_string(i)));
    }
    EXPECT_FALSE(next);
    EXPECT_EQ(f.status(), TournamentPgnFetch::Status::Failed);
    EXPECT_EQ(f.error(), "");
    EXPECT_EQ(f.text(), "");
}

TEST(TournamentView, PgnPagesThatDoNotAddUpFailAndAnEmptyTextIsDone) {
    TournamentPgnFetch f;
    f.start(3, proto::PgnNotation::Chinese);
    proto::TournamentPgn last = page("0123456789", 0, 10, "d");
    last.total = 12;  // the last page ends short of the total
    EXPECT_FALSE(f.take(last));
    EXPECT_EQ(f.status(), TournamentPgnFetch::Status::Failed);
    f.start(3, proto::PgnNotation::Chinese);
    proto::TournamentPgn stuck = page("0123456789", 0, 10, "d");
    stuck.text.clear();
    stuck.more = true;  // no progress: never asks the same page forever
    EXPECT_FALSE(f.take(stuck));
    EXPECT_EQ(f.status(), TournamentPgnFetch::Status::Failed);
    f.start(3, proto::PgnNotation::Chinese);
    EXPECT_FALSE(f.take(page("", 0, 10, "e")));  // no game decided yet
    EXPECT_EQ(f.status(), TournamentPgnFetch::Status::Done);
    EXPECT_EQ(f.text(), "");
    EXPECT_EQ(tournament_file_name("Club/night: R1"), "Club_night_ R1.pgn");
    EXPECT_EQ(tournament_file_name(".hidden"), "_hidden.pgn");
}

TEST(TournamentView, TheSessionAsksForEveryPageAndStopsOnARefusal) {
    ClientState state;
    Session s(state);
    s.get_tournament_pgn(3, proto::PgnNotation::Chinese);
    const std::string whole(300, 'x');
    // The offset asked for by the one request in the outbox (offset 0 is the default).
    auto asked_offset = [&s]() -> std::int64_t {
        auto out = s.take_outbox();
        EXPECT_EQ(out.size(), 1u);
        if (out.size() != 1u) return -1;
        std::string line = out[0];
        if (!line.empty() && line.back() == '\n') line.pop_back();
        auto d = proto::decode_client(line);
        EXPECT_TRUE(d.ok()) << line;
        if (!d.ok()) return -1;
        const auto* req = std::get_if<proto::GetTournamentPgn>(&d.value());
        EXPECT_NE(req, nullptr) << line;
        if (req == nullptr) return -1;
        EXPECT_EQ(req->tournament, 3u);
        return req->offset;
    };
    EXPECT_EQ(asked_offset(), 0);
    s.handle_line(proto::encode(proto::ServerMessage{page(whole, 0, 256, "d")}));
    EXPECT_EQ(asked_offset(), 256);
    s.handle_line(proto::encode(proto::ServerMessage{page(whole, 256, 256, "d")}));
    EXPECT_TRUE(s.take_outbox().empty());
    EXPECT_EQ(state.tournaments.pgn.status(), TournamentPgnFetch::Status::Done);
    EXPECT_EQ(state.tournaments.pgn.text(), whole);
    // A server without an archive refuses: the fetch ends with the error's code, in words.
    s.get_tournament_pgn(3, proto::PgnNotation::Iccs);
    s.take_outbox();
    proto::Error e;
    e.code = proto::ErrorCode::NotAllowed;
    e.request = "get_tournament_pgn";
    e.message = "no archive";
    s.handle_line(proto::encode(proto::ServerMessage{e}));
    EXPECT_EQ(state.tournaments.pgn.status(), TournamentPgnFetch::Status::Failed);
    EXPECT_EQ(state.tournaments.pgn.error(), "not_allowed");
    EXPECT_EQ(error_code_string("not_allowed", "get_tournament_pgn"), Str::ErrNoTourneyPgn);
}

TEST(TournamentView, TheDirectorsToolsCheckTheFormAndSendTheRequests) {
    using K = proto::ArbiterKind;
    ArbiterForm f;
    EXPECT_EQ(arbiter_problem(K::Pause, f), Str::Ok);
    EXPECT_EQ(arbiter_problem(K::Cancel, f), Str::Ok);  // a cancel's reason is optional
    EXPECT_EQ(arbiter_problem(K::Adjudicate, f), Str::ArbiterProblemReason);
    f.reason = "  \t ";  // blanks are no reason (the server trims them away)
    EXPECT_EQ(arbiter_problem(K::Adjudicate, f), Str::ArbiterProblemReason);
    f.reason = "  Black's phone rang ";
    EXPECT_EQ(arbiter_problem(K::Adjudicate, f), Str::Ok);
    f.seconds = 0;
    EXPECT_EQ(arbiter_problem(K::AddTime, f), Str::ArbiterProblemSeconds);
    f.seconds = 3601;
    EXPECT_EQ(arbiter_problem(K::AddTime, f), Str::ArbiterProblemSeconds);
    f.seconds = 90;
    f.side = BLACK;
    EXPECT_EQ(arbiter_problem(K::AddTime, f), Str::Ok);
    const auto add = arbiter_request(12, K::AddTime, f);
    EXPECT_EQ(add.table, 12u);
    EXPECT_EQ(add.side, BLACK);
    EXPECT_EQ(add.seconds, 90);
    EXPECT_FALSE(add.result);
    EXPECT_EQ(add.reason, "");
    f.result = Outcome::Draw;
    const auto adj = arbiter_request(12, K::Adjudicate, f);
    EXPECT_EQ(adj.result, Outcome::Draw);
    EXPECT_EQ(adj.reason, "Black's phone rang");
    EXPECT_FALSE(adj.seconds);
    EXPECT_NE(std::string(tr(Lang::Chinese, Str::ArbiterProblemSeconds)).find("1 到 3600"), std::string::npos);
    EXPECT_EQ(error_code_string("not_allowed", "arbiter"), Str::ErrArbiterNotAllowed);

    // Over the session: the request as the server reads it; the director, in the lobby, hears
    // of their own action (a notice) and the board is known paused; someone else's action at
    // another table is not theirs to hear.
    ClientState state;
    state.my_name = "dora";
    Session s(state);
    s.arbiter(adj);
    const auto out = s.take_outbox();
    ASSERT_EQ(out.size(), 1u);
    const auto msg = proto::decode_client(out[0].substr(0, out[0].size() - 1));
    ASSERT_TRUE(msg.ok()) << out[0];
    const auto* r = std::get_if<proto::ArbiterRequest>(&msg.value());
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->action, K::Adjudicate);
    EXPECT_EQ(r->result, Outcome::Draw);
    EXPECT_EQ(r->reason, "Black's phone rang");
    proto::ArbiterAction a;
    a.table = 12;
    a.by = "dora";
    a.action = K::Pause;
    a.paused = true;
    s.handle_line(proto::encode(proto::ServerMessage{a}));
    auto cues = s.take_cues();
    ASSERT_EQ(cues.size(), 1u);
    EXPECT_EQ(cues[0].kind, Cue::Kind::Notice);
    EXPECT_EQ(cues[0].str, Str::ArbiterPaused);
    EXPECT_TRUE(state.tournaments.paused[12]);
    EXPECT_FALSE(state.table.paused);  // not at that table
    a.by = "eve";
    a.action = K::Resume;
    a.paused = false;
    s.handle_line(proto::encode(proto::ServerMessage{a}));
    EXPECT_TRUE(s.take_cues().empty());
    EXPECT_FALSE(state.tournaments.paused[12]);
}

}  // namespace
}  // namespace xq::client
