// The arbiter's tools over real sockets: a tournament's director pauses and resumes a board,
// adjudicates it with a reason, cancels another; a club table's creator who does not play
// there arbitrates it; everyone else is refused, and bad fields are refused before anything
// changes. (Clocks: tests/durability/table_settings_test.cpp, where the recorder attaches them.)
#include <algorithm>

#include "harness.h"

namespace xq::test {
namespace {

using proto::ArbiterKind;
using proto::ArbiterRequest;
using proto::BoardResult;
using proto::ErrorCode;
using proto::TournamentState;

ArbiterRequest act(proto::TableId table, ArbiterKind k, std::string reason = {}) {
    ArbiterRequest m;
    m.table = table;
    m.action = k;
    m.reason = std::move(reason);
    return m;
}

proto::Tournament next_tournament(Client& c, std::uint32_t id, bool (*ok)(const proto::Tournament&)) {
    for (int i = 0; i < 50; ++i) {
        const auto t = c.expect<proto::Tournament>();
        if (t.id == id && ok(t)) return t;
    }
    ADD_FAILURE() << "no tournament line as expected";
    return {};
}

// dora directs a two-player round robin of alice and bob; round 1 is paired.
struct Event {
    std::unique_ptr<Client> dora, alice, bob;
    std::uint32_t id = 0;
    proto::TableId table = 0;
    Client* red = nullptr;
    Client* black = nullptr;
};

Event start_event(TestServer& s) {
    Event e;
    e.dora = Client::login(s.port(), "dora");
    e.alice = Client::login(s.port(), "alice");
    e.bob = Client::login(s.port(), "bob");
    e.dora->send(proto::CreateTournament{});
    e.id = e.dora->expect<proto::Tournament>().id;
    e.alice->send(proto::JoinTournament{e.id});
    e.alice->until_pong();
    e.bob->send(proto::JoinTournament{e.id});
    e.bob->until_pong();
    e.dora->send(proto::StartTournament{e.id});
    const auto t = next_tournament(*e.dora, e.id, [](const proto::Tournament& t) {
        return t.state == TournamentState::Running && t.round == 1;
    });
    e.table = t.boards.at(0).table;
    const bool alice_red = t.entrants.at(static_cast<std::size_t>(t.boards[0].red)).name == "alice";
    e.red = alice_red ? e.alice.get() : e.bob.get();
    e.black = alice_red ? e.bob.get() : e.alice.get();
    e.red->until_pong();
    e.black->until_pong();
    return e;
}

template <class T>
std::vector<T> all_of(const Messages& v) {
    std::vector<T> out;
    for (const auto& m : v)
        if (const auto* t = std::get_if<T>(&m)) out.push_back(*t);
    return out;
}

TEST(Arbiter, TheDirectorPausesResumesAndAdjudicatesABoard) {
    TestServer s;
    Event e = start_event(s);
    Client& r = *e.red;
    Client& b = *e.black;
    auto sam = Client::login(s.port(), "sam");
    sam->send(proto::Join{e.table, proto::Role::Spectator});
    EXPECT_FALSE(sam->expect<proto::TableSnapshot>().paused);
    r.send(proto::MoveRequest{e.table, 0, "h2e2"});
    b.expect_ply(1);
    sam->expect_ply(1);

    // The director acts from the lobby: the table hears it, and so does the director.
    e.dora->send(act(e.table, ArbiterKind::Pause));
    const auto paused = e.dora->expect<proto::ArbiterAction>();
    EXPECT_EQ(paused.table, e.table);
    EXPECT_EQ(paused.by, "dora");
    EXPECT_EQ(paused.action, ArbiterKind::Pause);
    EXPECT_TRUE(paused.paused);
    EXPECT_EQ(paused.ply, 1);
    for (Client* c : {&r, &b, sam.get()}) {
        const auto a = c->expect<proto::ArbiterAction>();
        EXPECT_EQ(a.action, ArbiterKind::Pause);
        EXPECT_TRUE(a.paused);
    }
    // Paused: no move, no second pause; a spectator who comes now sees it.
    b.send(proto::MoveRequest{e.table, 1, "h9g7"});
    b.expect_error(ErrorCode::GameNotInProgress);
    e.dora->send(act(e.table, ArbiterKind::Pause));
    e.dora->expect_error(ErrorCode::NotAllowed);
    auto tom = Client::login(s.port(), "tom");
    tom->send(proto::Join{e.table, proto::Role::Spectator});
    EXPECT_TRUE(tom->expect<proto::TableSnapshot>().paused);
    // This table has no clock: no time to add.
    ArbiterRequest more = act(e.table, ArbiterKind::AddTime);
    more.side = RED;
    more.seconds = 30;
    e.dora->send(more);
    e.dora->expect_error(ErrorCode::NotAllowed);

    e.dora->send(act(e.table, ArbiterKind::Resume));
    EXPECT_FALSE(e.dora->expect<proto::ArbiterAction>().paused);
    EXPECT_EQ(b.expect<proto::ArbiterAction>().action, ArbiterKind::Resume);
    b.send(proto::MoveRequest{e.table, 1, "h9g7"});
    r.expect_ply(2);

    // Adjudication needs a result and a reason; then the game ends with both.
    e.dora->send(act(e.table, ArbiterKind::Adjudicate, "agreed"));
    e.dora->expect_error(ErrorCode::BadField);
    ArbiterRequest adj = act(e.table, ArbiterKind::Adjudicate, "   ");
    adj.result = Outcome::RedWins;
    e.dora->send(adj);
    e.dora->expect_error(ErrorCode::BadField);  // a reason of spaces only is none
    adj.reason = "Black's flag\nfell on the wall clock";
    e.dora->send(adj);
    const auto decided = r.expect<proto::ArbiterAction>();
    EXPECT_EQ(decided.action, ArbiterKind::Adjudicate);
    EXPECT_EQ(decided.result, Outcome::RedWins);
    EXPECT_EQ(decided.reason, "Black's flag fell on the wall clock");  // control characters cleaned
    for (Client* c : {&r, &b, sam.get(), tom.get()}) {
        const auto over = c->expect<proto::GameOver>();
        EXPECT_EQ(over.result.outcome, Outcome::RedWins);
        EXPECT_EQ(over.result.reason, "adjudication");
        EXPECT_NE(over.result.text.find("Black's flag fell on the wall clock"), std::string::npos) << over.result.text;
        EXPECT_NE(over.result.text.find("dora"), std::string::npos) << over.result.text;
    }
    const auto done = next_tournament(*e.dora, e.id, [](const proto::Tournament& t) {
        return t.state == TournamentState::Finished;
    });
    ASSERT_EQ(done.games.size(), 1u);
    EXPECT_EQ(done.games[0].result, BoardResult::RedWin);
    // A decided board has no arbiter any more.
    e.dora->send(act(e.table, ArbiterKind::Cancel));
    e.dora->expect_error(ErrorCode::NotAllowed);
}

TEST(Arbiter, OnlyTheDirectorArbitratesATournamentBoard) {
    TestServer s;
    Event e = start_event(s);
    auto mallory = Client::login(s.port(), "mallory");
    auto sam = Client::login(s.port(), "sam");
    sam->send(proto::Join{e.table, proto::Role::Spectator});
    sam->expect<proto::TableSnapshot>();
    // A player at the board, a spectator of it, anyone in the lobby: refused, whatever the action.
    for (Client* c : {e.red, e.black, sam.get(), mallory.get()}) {
        for (ArbiterKind k : {ArbiterKind::Pause, ArbiterKind::Resume, ArbiterKind::AddTime, ArbiterKind::Adjudicate,
                              ArbiterKind::Cancel}) {
            ArbiterRequest m = act(e.table, k, "because");
            m.result = Outcome::RedWins;
            m.side = BLACK;
            m.seconds = 60;
            c->send(m);
            c->expect_error(ErrorCode::NotAllowed);
        }
    }
    // Nothing happened at the table.
    for (Client* c : {e.red, e.black, sam.get()}) EXPECT_EQ(count_of<proto::ArbiterAction>(c->until_pong()), 0);
    e.red->send(proto::MoveRequest{e.table, 0, "h2e2"});
    e.black->expect_ply(1);
    // Unknown tables and malformed requests.
    e.dora->send(act(9999, ArbiterKind::Pause));
    e.dora->expect_error(ErrorCode::NoSuchTable);
    e.dora->raw(R"({"type":"arbiter","table":)" + std::to_string(e.table) + R"(,"action":"freeze"})" "\n");
    e.dora->expect_error(ErrorCode::BadField);
    e.dora->raw(R"({"type":"arbiter","table":)" + std::to_string(e.table) +
                R"(,"action":"add_time","side":"red","seconds":3601})" "\n");
    e.dora->expect_error(ErrorCode::BadField);
    e.dora->send(act(e.table, ArbiterKind::AddTime));  // no side, no seconds
    e.dora->expect_error(ErrorCode::BadField);
    EXPECT_EQ(count_of<proto::ArbiterAction>(e.red->until_pong()), 0);
}

TEST(Arbiter, ACancelledBoardEndsWithoutAResultAndNobodyScores) {
    TestServer s;
    Event e = start_event(s);
    e.red->send(proto::MoveRequest{e.table, 0, "h2e2"});
    e.black->expect_ply(1);
    e.dora->send(act(e.table, ArbiterKind::Cancel, "wrong pairing"));
    EXPECT_EQ(e.dora->expect<proto::ArbiterAction>().reason, "wrong pairing");
    for (Client* c : {e.red, e.black}) {
        const auto over = c->expect<proto::GameOver>();
        EXPECT_EQ(over.result.outcome, Outcome::Ongoing);  // "*"
        EXPECT_EQ(over.result.reason, "cancelled");
    }
    // A late spectator sees the game over, without a result.
    auto sam = Client::login(s.port(), "sam");
    sam->send(proto::Join{e.table, proto::Role::Spectator});
    const auto snap = sam->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.table.status, proto::TableStatus::Over);
    ASSERT_TRUE(snap.result.has_value());
    EXPECT_EQ(snap.result->reason, "cancelled");
    const auto done = next_tournament(*e.dora, e.id, [](const proto::Tournament& t) {
        return t.state == TournamentState::Finished;
    });
    ASSERT_EQ(done.games.size(), 1u);
    EXPECT_EQ(done.games[0].result, BoardResult::DoubleForfeit);
    for (const auto& st : done.standings) EXPECT_EQ(st.points, 0);
}

TEST(Arbiter, AClubTablesCreatorArbitratesWhenNotPlayingThere) {
    TestServer s;
    auto carl = Client::login(s.port(), "carl");
    carl->send(proto::CreateTable{"club", proto::Role::Spectator});
    const auto table = carl->expect<proto::TableSnapshot>().table.id;
    auto ann = Client::login(s.port(), "ann");
    auto ben = Client::login(s.port(), "ben");
    ann->send(proto::Join{table, proto::Role::Red});
    ann->expect<proto::TableSnapshot>();
    ben->send(proto::Join{table, proto::Role::Black});
    ben->expect<proto::TableSnapshot>();
    ann->until_pong();
    // A seated player is no arbiter of their own game, nor is anyone but the creator.
    ann->send(act(table, ArbiterKind::Pause));
    ann->expect_error(ErrorCode::NotAllowed);
    auto eve = Client::login(s.port(), "eve");
    eve->send(act(table, ArbiterKind::Pause));
    eve->expect_error(ErrorCode::NotAllowed);
    carl->send(act(table, ArbiterKind::Pause));
    EXPECT_EQ(ann->expect<proto::ArbiterAction>().by, "carl");
    EXPECT_EQ(carl->expect<proto::ArbiterAction>().action, ArbiterKind::Pause);
    // Only one arbiter_action reaches the creator although he is at the table.
    EXPECT_EQ(count_of<proto::ArbiterAction>(carl->until_pong()), 0);
    ann->send(proto::MoveRequest{table, 0, "h2e2"});
    ann->expect_error(ErrorCode::GameNotInProgress);
    ArbiterRequest draw = act(table, ArbiterKind::Adjudicate, "dinner time");
    draw.result = Outcome::Draw;
    carl->send(draw);
    const auto over = ben->expect<proto::GameOver>();
    EXPECT_EQ(over.result.outcome, Outcome::Draw);
    EXPECT_EQ(over.result.reason, "adjudication");
    // Over: nothing more to arbitrate.
    carl->send(act(table, ArbiterKind::Cancel));
    carl->expect_error(ErrorCode::GameNotInProgress);
    // A new game at the table starts unpaused.
    ann->send(proto::NewGame{table});
    ben->send(proto::NewGame{table});
    const auto fresh = ann->expect<proto::TableSnapshot>();
    EXPECT_FALSE(fresh.paused);
}

}  // namespace
}  // namespace xq::test
