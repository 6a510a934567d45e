// Tournaments over real sockets: entries, pairings by the server, boards opened and seated
// automatically, results from the tables, forfeits, byes, standings, and the refusals.
#include <algorithm>
#include <map>
#include <set>

#include "harness.h"

namespace xq::test {
namespace {

using proto::BoardResult;
using proto::ErrorCode;
using proto::TournamentState;

// The next `tournament` line of tournament `id` that satisfies `ok` (others are skipped).
template <class Pred>
proto::Tournament wait_tournament(Client& c, std::uint32_t id, Pred ok, std::chrono::milliseconds timeout = 10000ms) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            ADD_FAILURE() << "no tournament line as expected";
            return {};
        }
        const auto t = c.expect<proto::Tournament>(left);
        if (t.id == id && ok(t)) return t;
    }
}

proto::Tournament wait_round(Client& c, std::uint32_t id, int round) {
    return wait_tournament(c, id, [&](const proto::Tournament& t) {
        return t.round == round && t.state == TournamentState::Running;
    });
}

proto::Tournament wait_finished(Client& c, std::uint32_t id, std::chrono::milliseconds timeout = 10000ms) {
    return wait_tournament(c, id, [](const proto::Tournament& t) { return t.state == TournamentState::Finished; },
                           timeout);
}

struct Field {
    std::map<std::string, std::unique_ptr<Client>> players;
    std::uint32_t id = 0;
};

// `names[0]` creates the tournament; every name enters.
Field enter(TestServer& s, const std::vector<std::string>& names, proto::CreateTournament create) {
    Field f;
    for (const auto& n : names) f.players[n] = Client::login(s.port(), n);
    Client& director = *f.players[names[0]];
    director.send(create);
    f.id = director.expect<proto::Tournament>().id;
    EXPECT_GT(f.id, 0u);
    for (const auto& n : names) {
        f.players[n]->send(proto::JoinTournament{f.id});
        wait_tournament(*f.players[n], f.id, [&](const proto::Tournament& t) {
            for (const auto& e : t.entrants)
                if (e.name == n) return true;
            return false;
        });
    }
    return f;
}

int points_for(BoardResult r, bool red) {
    switch (r) {
    case BoardResult::RedWin: return red ? 2 : 0;
    case BoardResult::BlackWin: return red ? 0 : 2;
    case BoardResult::Draw: return 1;
    case BoardResult::RedForfeit: return red ? 0 : 2;
    case BoardResult::BlackForfeit: return red ? 2 : 0;
    case BoardResult::Bye: return red ? 2 : 0;
    default: return 0;
    }
}

TEST(Tournament, FourPlayerRoundRobinPlayedToTheEnd) {
    TestServer s;
    const std::vector<std::string> names = {"alice", "bob", "carol", "dave"};
    proto::CreateTournament create;
    create.name = "Club night";
    create.format = proto::TournamentFormat::RoundRobin;
    Field f = enter(s, names, create);
    f.players["alice"]->send(proto::StartTournament{f.id});

    std::map<std::string, int> expected_points;
    std::set<std::pair<std::string, std::string>> met;
    proto::Tournament last;
    for (int round = 1; round <= 3; ++round) {
        std::map<std::string, proto::Tournament> seen;
        for (const auto& n : names) seen[n] = wait_round(*f.players[n], f.id, round);
        const proto::Tournament& t = seen["alice"];
        EXPECT_EQ(t.rounds, 3);
        ASSERT_EQ(t.boards.size(), 2u);
        for (const auto& b : t.boards) {
            ASSERT_GE(b.black, 0);
            ASSERT_NE(b.table, 0u);
            const std::string red = t.entrants[static_cast<std::size_t>(b.red)].name;
            const std::string black = t.entrants[static_cast<std::size_t>(b.black)].name;
            EXPECT_TRUE(met.insert({std::min(red, black), std::max(red, black)}).second) << red << " met " << black << " twice";
            Client& r = *f.players[red];
            Client& bl = *f.players[black];
            // Both were moved to the board: their snapshots came before the round's line.
            for (Client* c : {&r, &bl}) {
                bool at_board = false;
                for (const auto& m : c->skipped)
                    if (const auto* snap = std::get_if<proto::TableSnapshot>(&m); snap && snap->table.id == b.table)
                        at_board = snap->table.status == proto::TableStatus::Waiting ||
                                   snap->table.status == proto::TableStatus::Playing;
                EXPECT_TRUE(at_board) << "not seated at table " << b.table;
            }
            BoardResult result;
            if (round == 1 && b.board == 1) {
                r.send(proto::OfferDraw{b.table});
                bl.expect<proto::DrawOffered>();
                bl.send(proto::AnswerDraw{b.table, true});
                result = BoardResult::Draw;
            } else if ((round + b.board) % 2 == 0) {
                r.send(proto::Resign{b.table});
                result = BoardResult::BlackWin;
            } else {
                bl.send(proto::Resign{b.table});
                result = BoardResult::RedWin;
            }
            expected_points[red] += points_for(result, true);
            expected_points[black] += points_for(result, false);
            r.expect<proto::GameOver>();
            bl.expect<proto::GameOver>();
        }
        for (const auto& n : names) f.players[n]->skipped.clear();
    }
    for (const auto& n : names) last = wait_finished(*f.players[n], f.id);
    EXPECT_EQ(met.size(), 6u);
    ASSERT_EQ(last.games.size(), 6u);
    ASSERT_EQ(last.standings.size(), 4u);
    int total = 0;
    for (const auto& st : last.standings) {
        const std::string& n = last.entrants[static_cast<std::size_t>(st.entrant)].name;
        EXPECT_EQ(st.points, expected_points[n]) << n;
        EXPECT_EQ(st.games, 3) << n;
        total += st.points;
    }
    EXPECT_EQ(total, 12);  // six games, two points each
    for (std::size_t i = 1; i < last.standings.size(); ++i)
        EXPECT_GE(last.standings[i - 1].points, last.standings[i].points);
    EXPECT_EQ(last.standings[0].rank, 1);
    // The finished tournament is listed.
    f.players["bob"]->send(proto::ListTournaments{});
    const auto list = f.players["bob"]->expect<proto::Tournaments>();
    ASSERT_EQ(list.tournaments.size(), 1u);
    EXPECT_EQ(list.tournaments[0].state, TournamentState::Finished);
    EXPECT_EQ(list.tournaments[0].entrants, 4);
}

TEST(Tournament, SwissWithAnOddFieldGivesByesAndNoRepeats) {
    TestServer s;
    const std::vector<std::string> names = {"alice", "bob", "carol"};
    proto::CreateTournament create;
    create.format = proto::TournamentFormat::Swiss;
    create.rounds = 3;
    Field f = enter(s, names, create);
    f.players["alice"]->send(proto::StartTournament{f.id});
    std::set<std::string> had_bye;
    std::set<std::pair<std::string, std::string>> met;
    for (int round = 1; round <= 3; ++round) {
        proto::Tournament t;
        for (const auto& n : names) t = wait_round(*f.players[n], f.id, round);
        ASSERT_EQ(t.boards.size(), 2u);
        int byes = 0;
        for (const auto& b : t.boards) {
            const std::string red = t.entrants[static_cast<std::size_t>(b.red)].name;
            if (b.black < 0) {
                ++byes;
                EXPECT_EQ(b.result, BoardResult::Bye);
                EXPECT_EQ(b.table, 0u);
                EXPECT_TRUE(had_bye.insert(red).second) << red << " had two byes";
                continue;
            }
            const std::string black = t.entrants[static_cast<std::size_t>(b.black)].name;
            EXPECT_TRUE(met.insert({std::min(red, black), std::max(red, black)}).second) << "repeat pairing";
            f.players[red]->send(proto::Resign{b.table});
            f.players[black]->expect<proto::GameOver>();
        }
        EXPECT_EQ(byes, 1);
    }
    const auto done = wait_finished(*f.players["bob"], f.id);
    EXPECT_EQ(had_bye.size(), 3u);
    int total = 0;
    for (const auto& st : done.standings) total += st.points;
    EXPECT_EQ(total, 12);  // three games and three byes, two points each
    EXPECT_EQ(done.games.size(), 6u);
}

TEST(Tournament, AnAbsentPlayerLosesByForfeit) {
    TestServer s;
    proto::CreateTournament create;
    create.forfeit_seconds = 1;
    Field f = enter(s, {"alice", "bob"}, create);
    f.players["bob"].reset();  // bob goes home
    Client& alice = *f.players["alice"];
    alice.until_pong();
    alice.send(proto::StartTournament{f.id});
    const auto running = wait_round(alice, f.id, 1);
    ASSERT_EQ(running.boards.size(), 1u);
    const auto& board = running.boards[0];
    const bool alice_red = running.entrants[static_cast<std::size_t>(board.red)].name == "alice";
    const auto done = wait_finished(alice, f.id, 5000ms);
    ASSERT_EQ(done.games.size(), 1u);
    EXPECT_EQ(done.games[0].result, alice_red ? BoardResult::BlackForfeit : BoardResult::RedForfeit);
    EXPECT_EQ(done.standings[0].points, 2);
    EXPECT_EQ(done.entrants[static_cast<std::size_t>(done.standings[0].entrant)].name, "alice");
    EXPECT_EQ(done.standings[0].games, 0);  // a forfeit is not a game played
    // alice sat at her board and was sent back to the lobby once it was decided.
    bool left = false;
    for (const auto& m : alice.skipped)
        if (const auto* l = std::get_if<proto::LeftTable>(&m); l && l->table == board.table) left = true;
    EXPECT_TRUE(left);
}

TEST(Tournament, AiEntrantsPlayAndAnAiBoardIsNotRemoved) {
    auto config = test_config();
    config.ai_movetime_ms.fill(5);
    TestServer s(config);
    auto alice = Client::login(s.port(), "alice");
    proto::CreateTournament create;
    create.ai = {proto::AiEntrant{1}, proto::AiEntrant{1}};
    alice->send(create);
    const auto open = alice->expect<proto::Tournament>();
    ASSERT_EQ(open.entrants.size(), 2u);
    EXPECT_EQ(open.entrants[0].name, "AI level 1");
    EXPECT_EQ(open.entrants[1].name, "AI level 1 #2");
    alice->send(proto::StartTournament{open.id});
    // Nobody sits at the AI-versus-AI board: it stays until its game is decided.
    const auto done = wait_finished(*alice, open.id, 120000ms);
    ASSERT_EQ(done.games.size(), 1u);
    EXPECT_TRUE(done.games[0].result == BoardResult::RedWin || done.games[0].result == BoardResult::BlackWin ||
                done.games[0].result == BoardResult::Draw);
}

TEST(Tournament, AHumanAgainstAnAiEntrant) {
    TestServer s;
    auto alice = Client::login(s.port(), "alice");
    proto::CreateTournament create;
    create.ai = {proto::AiEntrant{3}};
    alice->send(create);
    const auto id = alice->expect<proto::Tournament>().id;
    alice->send(proto::JoinTournament{id});
    alice->send(proto::StartTournament{id});
    const auto t = wait_round(*alice, id, 1);
    ASSERT_EQ(t.boards.size(), 1u);
    const auto snap = [&] {
        for (const auto& m : alice->skipped)
            if (const auto* sn = std::get_if<proto::TableSnapshot>(&m)) return *sn;
        return proto::TableSnapshot{};
    }();
    EXPECT_EQ(snap.table.id, t.boards[0].table);
    alice->send(proto::Resign{t.boards[0].table});
    const auto done = wait_finished(*alice, id);
    ASSERT_EQ(done.games.size(), 1u);
    EXPECT_EQ(done.entrants[static_cast<std::size_t>(done.standings[0].entrant)].name, "AI level 3");
}

TEST(Tournament, RefusalsAndUnforgeablePairings) {
    TestServer s;
    auto alice = Client::login(s.port(), "alice");
    auto bob = Client::login(s.port(), "bob");
    auto mallory = Client::login(s.port(), "mallory");

    proto::CreateTournament swiss;
    swiss.format = proto::TournamentFormat::Swiss;
    alice->send(swiss);  // no rounds
    alice->expect_error(ErrorCode::BadField);
    proto::CreateTournament bad_clock;
    bad_clock.settings.clock = "fischer:abc";
    alice->send(bad_clock);
    EXPECT_EQ(alice->expect_error(ErrorCode::BadSettings).detail, proto::settings_detail::CLOCK_FORMAT);

    alice->send(proto::CreateTournament{});
    const auto id = alice->expect<proto::Tournament>().id;
    bob->send(proto::JoinTournament{id + 100});
    bob->expect_error(ErrorCode::NoSuchTournament);
    bob->send(proto::JoinTournament{id});
    bob->send(proto::JoinTournament{id});
    bob->expect_error(ErrorCode::AlreadyEntered);
    alice->send(proto::JoinTournament{id});
    bob->send(proto::StartTournament{id});
    bob->expect_error(ErrorCode::NotAllowed);
    alice->until_pong();
    alice->send(proto::StartTournament{id});
    const auto t = wait_round(*alice, id, 1);
    mallory->send(proto::JoinTournament{id});
    mallory->expect_error(ErrorCode::EntriesClosed);
    alice->send(proto::StartTournament{id});
    alice->expect_error(ErrorCode::EntriesClosed);

    // The board's seats belong to its entrants: nobody else sits there or puts an AI there.
    const auto table = t.boards.at(0).table;
    mallory->send(proto::Join{table, proto::Role::Red});
    mallory->expect_error(ErrorCode::NotAllowed);
    mallory->send(proto::Join{table, proto::Role::Spectator});
    mallory->expect<proto::TableSnapshot>();
    // Takebacks are off; after the game no rematch is played on the board.
    const std::string red = t.entrants[static_cast<std::size_t>(t.boards[0].red)].name;
    Client& r = red == "alice" ? *alice : *bob;
    Client& b = red == "alice" ? *bob : *alice;
    r.send(proto::MoveRequest{table, 0, "h2e2"});
    r.expect<proto::MoveMade>();
    r.send(proto::RequestTakeback{table});
    r.expect_error(ErrorCode::NotAllowed);
    b.send(proto::Resign{table});
    r.expect<proto::GameOver>();
    r.send(proto::NewGame{table});
    r.expect_error(ErrorCode::NotAllowed);
    wait_finished(*alice, id);
    alice->send(proto::LeaveTournament{id});
    alice->expect_error(ErrorCode::NotAllowed);
    mallory->send(proto::GetTournament{id});
    EXPECT_EQ(mallory->expect<proto::Tournament>().state, TournamentState::Finished);
}

// The moves of the spectator's move_made lines among `got`, in order.
std::vector<std::string> moves_seen(const Messages& got) {
    std::vector<std::string> out;
    for (const auto& m : got)
        if (const auto* mm = std::get_if<proto::MoveMade>(&m)) out.push_back(mm->move);
    return out;
}

TEST(Tournament, SpectatorsSeeTheBoardsTheDelayLate) {
    TestServer s;
    proto::CreateTournament too_long;
    too_long.spectator_delay = proto::MAX_SPECTATOR_DELAY + 1;
    {
        auto zed = Client::login(s.port(), "zed");
        zed->send(too_long);
        zed->expect_error(ErrorCode::BadField);
    }

    proto::CreateTournament create;
    create.name = "Delayed";
    create.spectator_delay = 2;
    Field f = enter(s, {"alice", "bob"}, create);
    auto mallory = Client::login(s.port(), "mallory");
    f.players["alice"]->send(proto::StartTournament{f.id});
    const auto t = wait_round(*f.players["alice"], f.id, 1);
    EXPECT_EQ(t.spectator_delay, 2);
    const auto table = t.boards.at(0).table;
    const std::string red = t.entrants[static_cast<std::size_t>(t.boards[0].red)].name;
    Client& r = *f.players[red];
    Client& b = *f.players[red == "alice" ? "bob" : "alice"];
    mallory->send(proto::Join{table, proto::Role::Spectator});
    EXPECT_EQ(mallory->expect<proto::TableSnapshot>().ply, 0);

    // Two plies: the players see them at once, the spectator nothing yet.
    r.send(proto::MoveRequest{table, 0, "h2e2"});
    b.expect_ply(1);
    b.send(proto::MoveRequest{table, 1, "h9g7"});
    r.expect_ply(2);
    EXPECT_TRUE(moves_seen(mallory->until_pong()).empty());
    // The third ply releases the first to the spectator, and nothing more.
    r.send(proto::MoveRequest{table, 2, "h0g2"});
    b.expect_ply(3);
    EXPECT_EQ(moves_seen(mallory->until_pong()), std::vector<std::string>{"h2e2"});
    // A spectator who comes now sees the board where the delay has got to; a player sees it live.
    auto carol = Client::login(s.port(), "carol");
    carol->send(proto::Join{table, proto::Role::Spectator});
    const auto snap = carol->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.ply, 1);
    EXPECT_EQ(snap.table.ply, 1);
    EXPECT_EQ(snap.moves, std::vector<std::string>{"h2e2"});
    Game after_one;
    ASSERT_TRUE(after_one.play(Move(square_from_string("h2"), square_from_string("e2"))));
    EXPECT_EQ(snap.fen, after_one.position().fen());
    // Takebacks are off; at the end of the game the spectators get every move, then the result.
    r.send(proto::RequestTakeback{table});
    r.expect_error(ErrorCode::NotAllowed);
    b.send(proto::Resign{table});
    r.expect<proto::GameOver>();
    for (Client* c : {mallory.get(), carol.get()}) {
        const auto got = c->until_pong();
        EXPECT_EQ(moves_seen(got), (std::vector<std::string>{"h9g7", "h0g2"}));
        // The result comes after the last move.
        ASSERT_FALSE(got.empty());
        const auto over = std::find_if(got.begin(), got.end(),
                                       [](const auto& m) { return std::holds_alternative<proto::GameOver>(m); });
        ASSERT_NE(over, got.end());
        EXPECT_TRUE(std::none_of(over, got.end(),
                                 [](const auto& m) { return std::holds_alternative<proto::MoveMade>(m); }));
    }
}

TEST(Tournament, OnlyTheOperatorCreatesWhenTheHostSaysSo) {
    auto config = test_config();
    config.tournaments_by_operator = true;
    TestServer s(config);
    auto alice = Client::login(s.port(), "alice");
    alice->send(proto::CreateTournament{});
    alice->expect_error(ErrorCode::NotAllowed);
}

TEST(Tournament, AWithdrawnEntrantIsNotPairedAgain) {
    TestServer s;
    const std::vector<std::string> names = {"alice", "bob", "carol"};
    Field f = enter(s, names, proto::CreateTournament{});
    f.players["alice"]->send(proto::StartTournament{f.id});
    // Round 1 of three players: one board and a bye.
    proto::Tournament t;
    for (const auto& n : names) t = wait_round(*f.players[n], f.id, 1);
    f.players["carol"]->send(proto::LeaveTournament{f.id});
    wait_tournament(*f.players["carol"], f.id, [](const proto::Tournament& x) {
        return x.entrants.size() == 3 && x.entrants[2].withdrawn;
    });
    // Every board played is resigned by Red; carol's later games are forfeits, nobody waits for her.
    std::set<proto::TableId> resigned;
    proto::Tournament done;
    for (;;) {
        done = wait_tournament(*f.players["alice"], f.id, [&](const proto::Tournament& x) {
            if (x.state == TournamentState::Finished) return true;
            for (const auto& b : x.boards)
                if (b.table != 0 && b.result == BoardResult::Pending && !resigned.count(b.table)) return true;
            return false;
        });
        if (done.state == TournamentState::Finished || done.id == 0) break;
        for (const auto& b : done.boards) {
            if (b.table == 0 || b.result != BoardResult::Pending || !resigned.insert(b.table).second) continue;
            if (done.round > 1) {
                EXPECT_NE(b.red, 2);
                EXPECT_NE(b.black, 2);
            }
            f.players[done.entrants[static_cast<std::size_t>(b.red)].name]->send(proto::Resign{b.table});
        }
    }
    ASSERT_EQ(done.state, TournamentState::Finished);
    EXPECT_EQ(done.round, 3);
    // No bye for a withdrawn entrant either.
    for (const auto& g : done.games) {
        if (g.round == 1) continue;
        EXPECT_FALSE(g.red == 2 && g.black < 0);
        if (g.red == 2) {
            EXPECT_EQ(g.result, BoardResult::RedForfeit);
        }
        if (g.black == 2) {
            EXPECT_EQ(g.result, BoardResult::BlackForfeit);
        }
    }
}

}  // namespace
}  // namespace xq::test
