// Table settings and the seat countdown over real sockets: settings in every table info,
// bad settings refused, takebacks switched off, a dropped player's countdown as others see
// it, abandoned seats (claim_win, keep waiting, the AI holding the seat) and returns.
#include "harness.h"

#include "xiangqi/notation.h"

namespace xq::test {
namespace {

using proto::AbandonPolicy;
using proto::ErrorCode;
using proto::TableSettings;

struct Trio {
    std::unique_ptr<Client> red, black, spec;
    proto::TableId table = 0;
};

// alice (Red) creates a table with `settings`, bob sits as Black, carol watches.
Trio seat_three(TestServer& s, const TableSettings& settings) {
    Trio t;
    t.red = Client::login(s.port(), "alice");
    t.red->send(proto::CreateTable{"rules", proto::Role::Red, "", settings});
    t.table = t.red->expect<proto::TableSnapshot>().table.id;
    t.black = Client::login(s.port(), "bob");
    t.black->send(proto::Join{t.table, proto::Role::Black});
    t.black->expect<proto::TableSnapshot>();
    t.spec = Client::login(s.port(), "carol");
    t.spec->send(proto::Join{t.table, proto::Role::Spectator});
    t.spec->expect<proto::TableSnapshot>();
    t.red->until_pong();
    t.black->until_pong();
    t.spec->until_pong();
    return t;
}

TableSettings grace_s(int seconds, AbandonPolicy policy = AbandonPolicy::Claim, std::optional<int> hold = {}) {
    TableSettings st;
    st.grace = seconds;
    st.abandon = policy;
    st.hold_level = hold;
    return st;
}

// The seat info of `c` in the table's latest info the client holds (a fresh snapshot).
proto::TableInfo fresh_info(Client& c, proto::TableId table) {
    c.send(proto::Sync{table});
    return c.expect<proto::TableSnapshot>().table;
}

}  // namespace

TEST(Settings, RoundTripIntoEveryTableInfo) {
    TestServer s;
    auto alice = Client::login(s.port(), "alice");
    auto lobby = Client::login(s.port(), "dave");
    const TableSettings asked{"fischer:300+5", 90, AbandonPolicy::Ai, 4, false};
    alice->send(proto::CreateTable{"blitz", proto::Role::Red, "", asked});
    const auto snap = alice->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.table.settings, asked);
    // The lobby hears of the table with its settings, and list_tables has them too.
    EXPECT_EQ(lobby->expect<proto::TableUpdate>().table.settings, asked);
    lobby->send(proto::ListTables{});
    const auto list = lobby->expect<proto::Tables>();
    ASSERT_EQ(list.tables.size(), 1u);
    EXPECT_EQ(list.tables[0].settings, asked);

    // Nothing asked: every field is filled with the server's defaults.
    auto bob = Client::login(s.port(), "bob");
    bob->send(proto::CreateTable{"plain", proto::Role::Red, ""});
    const auto plain = bob->expect<proto::TableSnapshot>().table.settings;
    EXPECT_EQ(plain, (TableSettings{"none", 60, AbandonPolicy::Claim, 5, true}));

    // A partly filled request: the rest defaults; the clock text comes back in one spelling.
    auto erin = Client::login(s.port(), "erin");
    TableSettings part;
    part.clock = "asian:600/60/30";
    part.grace = 0;
    erin->send(proto::CreateTable{"", proto::Role::Black, "", part});
    EXPECT_EQ(erin->expect<proto::TableSnapshot>().table.settings,
              (TableSettings{"asian:600/60/30", 0, AbandonPolicy::Claim, 5, true}));
}

TEST(Settings, BadClockIsRefusedWithTheReason) {
    TestServer s;
    auto alice = Client::login(s.port(), "alice");
    // Each with its detail code (protocol/errors.h), which clients word in their language.
    const std::pair<const char*, std::string_view> cases[] = {
        {"fischer:abc", proto::settings_detail::CLOCK_FORMAT},  {"sudden death", proto::settings_detail::CLOCK_UNKNOWN},
        {"asian:10/20", proto::settings_detail::CLOCK_FORMAT},  {"fischer:99999999+0", proto::settings_detail::CLOCK_RANGE},
        {"fischer:0+5", proto::settings_detail::CLOCK_ZERO},    {"asian:0/30/0", proto::settings_detail::CLOCK_ZERO},
        {"asian:60/x/10", proto::settings_detail::CLOCK_RANGE},
    };
    for (const auto& [bad, detail] : cases) {
        TableSettings st;
        st.clock = bad;
        alice->send(proto::CreateTable{"", proto::Role::Red, "", st});
        const auto e = alice->expect_error(ErrorCode::BadSettings);
        EXPECT_EQ(e.request, "create_table");
        EXPECT_EQ(e.detail, detail) << bad;
        EXPECT_NE(e.message.find(bad), std::string::npos) << e.message;
        EXPECT_GT(e.message.size(), std::string(bad).size() + 15) << "no reason given: " << e.message;
    }
    // Out-of-range numbers never reach the table (the codec refuses them).
    alice->raw(R"({"type":"create_table","settings":{"grace":3601}})" "\n");
    alice->expect_error(ErrorCode::BadField);
    alice->raw(R"({"type":"create_table","settings":{"hold_level":0}})" "\n");
    alice->expect_error(ErrorCode::BadField);
    // Nothing was created.
    alice->send(proto::ListTables{});
    EXPECT_TRUE(alice->expect<proto::Tables>().tables.empty());
}

TEST(Settings, NoAiHoldOnAServerWithoutAi) {
    TestServer s(test_config(), /*with_ai=*/false);
    auto alice = Client::login(s.port(), "alice");
    alice->send(proto::CreateTable{"", proto::Role::Red, "", grace_s(10, AbandonPolicy::Ai)});
    EXPECT_EQ(alice->expect_error(ErrorCode::BadSettings).detail, proto::settings_detail::NO_AI);
}

TEST(Settings, TakebacksOffAreRefused) {
    TestServer s;
    TableSettings st;
    st.takebacks = false;
    Trio t = seat_three(s, st);
    t.red->send(proto::MoveRequest{t.table, 0, "h2e2"});
    t.black->expect<proto::MoveMade>();
    t.red->send(proto::RequestTakeback{t.table});
    const auto e = t.red->expect_error(ErrorCode::NotAllowed);
    EXPECT_NE(e.message.find("takebacks are off"), std::string::npos) << e.message;
    // Nobody heard of a request, and the game goes on.
    EXPECT_EQ(count_of<proto::TakebackRequested>(t.black->until_pong()), 0);
    t.black->send(proto::MoveRequest{t.table, 1, "h9g7"});
    EXPECT_EQ(t.red->expect<proto::MoveMade>().ply, 2);

    // With takebacks on (the default) the same request goes through.
    auto dave = Client::login(s.port(), "dave");
    dave->send(proto::CreateTable{"", proto::Role::Red, ""});
    const auto table = dave->expect<proto::TableSnapshot>().table.id;
    dave->send(proto::RequestAi{table, BLACK, 1});
    dave->send(proto::MoveRequest{table, 0, "h2e2"});
    dave->expect_ply(2);
    dave->send(proto::RequestTakeback{table});
    EXPECT_EQ(dave->expect<proto::TakebackDone>().plies, 2);
}

// Hints between two players: refused unless the creator allowed them, then only to the
// player to move, one at a time; the opponent and the spectators hear of each one.
TEST(Settings, HintsFollowTheTableSetting) {
    {
        TestServer s0;
        Trio off = seat_three(s0, TableSettings{});
        off.red->send(proto::RequestHint{off.table});
        EXPECT_NE(off.red->expect_error(ErrorCode::NotAllowed).message.find("hints are off"), std::string::npos);
    }
    TestServer s;
    TableSettings on;
    on.hints = true;
    Trio t = seat_three(s, on);
    t.red->send(proto::Sync{t.table});
    EXPECT_EQ(t.red->expect<proto::TableSnapshot>().table.settings.hints, std::optional<bool>(true));
    t.black->send(proto::RequestHint{t.table});
    t.black->expect_error(ErrorCode::NotYourTurn);
    t.spec->send(proto::RequestHint{t.table});
    t.spec->expect_error(ErrorCode::NotSeated);
    // Two at once: the second waits for nothing, it is refused.
    t.red->send(proto::RequestHint{t.table});
    t.red->send(proto::RequestHint{t.table});
    EXPECT_NE(t.red->expect<proto::Error>().message.find("still being searched"), std::string::npos);
    const auto hint = t.red->expect<proto::Hint>(30000ms);
    EXPECT_EQ(hint.ply, 0);
    Position start;
    ASSERT_EQ(start.set_fen(START_FEN), FenError::None);
    EXPECT_TRUE(parse_iccs(start, hint.move).ok()) << hint.move;
    for (auto* c : {t.black.get(), t.spec.get()}) {
        const auto used = c->expect<proto::HintUsed>();
        EXPECT_EQ(used.side, RED);
        EXPECT_EQ(used.name, "alice");
    }
    // A hint still searching when its player moves is dropped: no hint for a past position.
    t.red->send(proto::MoveRequest{t.table, 0, hint.move});
    t.black->expect_ply(1);
    t.black->send(proto::RequestHint{t.table});
    t.black->send(proto::MoveRequest{t.table, 1, "h9g7"});
    t.black->expect_ply(2);
    std::this_thread::sleep_for(600ms);  // longer than a hint's search
    for (const auto& m : t.black->until_pong()) {
        const auto* h = std::get_if<proto::Hint>(&m);
        EXPECT_TRUE(h == nullptr) << "a stale hint for ply " << h->ply;
    }
    // Never with a rated table.
    TableSettings rated;
    rated.clock = "fischer:300+5";
    rated.rated = true;
    rated.hints = true;
    auto dave = Client::login(s.port(), "dave");
    dave->send(proto::CreateTable{"", proto::Role::Red, "", rated});
    EXPECT_EQ(dave->expect_error(ErrorCode::BadSettings).detail, "no_hints");
}

TEST(Seats, DisconnectShowsTheCountdownToEveryone) {
    TestServer s;
    Trio t = seat_three(s, grace_s(30));
    t.red->send(proto::MoveRequest{t.table, 0, "h2e2"});
    t.spec->expect<proto::MoveMade>();
    t.black.reset();
    const auto left = t.red->expect<proto::PlayerLeft>();
    EXPECT_EQ(left.name, "bob");
    EXPECT_EQ(left.reason, proto::LeaveReason::Disconnected);
    EXPECT_EQ(left.grace_ms, std::optional<std::int64_t>(30'000));
    EXPECT_EQ(t.spec->expect<proto::PlayerLeft>().grace_ms, std::optional<std::int64_t>(30'000));
    // The table's update carries the countdown in Black's seat info.
    const auto upd = t.spec->expect<proto::TableUpdate>().table;
    ASSERT_TRUE(upd.black.has_value());
    EXPECT_FALSE(upd.black->connected);
    ASSERT_TRUE(upd.black->grace_ms.has_value());
    EXPECT_GT(*upd.black->grace_ms, 25'000);
    EXPECT_LE(*upd.black->grace_ms, 30'000);
    EXPECT_FALSE(upd.black->abandoned);

    // A spectator who comes later sees the time left at that moment.
    std::this_thread::sleep_for(300ms);
    auto late = Client::login(s.port(), "erin");
    late->send(proto::Join{t.table, proto::Role::Spectator});
    const auto snap = late->expect<proto::TableSnapshot>();
    ASSERT_TRUE(snap.table.black.has_value());
    EXPECT_EQ(snap.table.black->name, "bob");
    EXPECT_FALSE(snap.table.black->connected);
    ASSERT_TRUE(snap.table.black->grace_ms.has_value());
    EXPECT_LE(*snap.table.black->grace_ms, 29'700);
    EXPECT_GT(*snap.table.black->grace_ms, 20'000);
    // Red, still connected, has no countdown.
    ASSERT_TRUE(snap.table.red.has_value());
    EXPECT_TRUE(snap.table.red->connected);
    EXPECT_FALSE(snap.table.red->grace_ms.has_value());
    // Before the grace runs out nobody can claim.
    t.red->send(proto::ClaimWin{t.table});
    const auto e = t.red->expect_error(ErrorCode::NoClaim);
    EXPECT_NE(e.message.find("may still return"), std::string::npos) << e.message;
}

TEST(Seats, DroppedSeatOutsideAGameIsFreedAtOnce) {
    TestServer s;
    auto alice = Client::login(s.port(), "alice");
    alice->send(proto::CreateTable{"", proto::Role::Red, "", grace_s(30)});
    const auto table = alice->expect<proto::TableSnapshot>().table.id;
    auto carol = Client::login(s.port(), "carol");
    carol->send(proto::Join{table, proto::Role::Spectator});
    carol->expect<proto::TableSnapshot>();
    alice.reset();  // no game runs: nothing to keep the seat for
    const auto left = carol->expect<proto::PlayerLeft>();
    EXPECT_EQ(left.name, "alice");
    EXPECT_FALSE(left.grace_ms.has_value());
    EXPECT_FALSE(fresh_info(*carol, table).red.has_value());
    // And the name is free again.
    auto again = Client::login(s.port(), "alice");
    EXPECT_EQ(again->welcome.name, "alice");
}

TEST(Seats, AbandonedSeatIsClaimedByTheOpponentOnly) {
    TestServer s;
    Trio t = seat_three(s, grace_s(1));
    t.red->send(proto::MoveRequest{t.table, 0, "h2e2"});
    t.black->expect<proto::MoveMade>();
    t.black.reset();
    t.red->expect<proto::PlayerLeft>();
    // During the grace: no claim, for anyone.
    t.red->send(proto::ClaimWin{t.table});
    t.red->expect_error(ErrorCode::NoClaim);
    const auto ab = t.spec->expect<proto::SeatAbandoned>(4000ms);
    EXPECT_EQ(ab.table, t.table);
    EXPECT_EQ(ab.seat, BLACK);
    EXPECT_EQ(ab.name, "bob");
    EXPECT_TRUE(ab.claimable);
    EXPECT_EQ(ab.hold_level, 0);
    EXPECT_EQ(t.red->expect<proto::SeatAbandoned>().seat, BLACK);
    // The seat info says so (and the seat is still Bob's).
    const auto info = fresh_info(*t.spec, t.table);
    ASSERT_TRUE(info.black.has_value());
    EXPECT_EQ(info.black->name, "bob");
    EXPECT_TRUE(info.black->abandoned);
    EXPECT_FALSE(info.black->connected);
    EXPECT_FALSE(info.black->grace_ms.has_value());
    EXPECT_EQ(info.status, proto::TableStatus::Playing);
    // A spectator cannot claim; someone from another table cannot either.
    t.spec->send(proto::ClaimWin{t.table});
    t.spec->expect_error(ErrorCode::NoClaim);
    auto outsider = Client::login(s.port(), "mallory");
    outsider->send(proto::ClaimWin{t.table});
    outsider->expect_error(ErrorCode::NotAtTable);
    // The opponent can.
    t.red->send(proto::ClaimWin{t.table});
    for (Client* c : {t.red.get(), t.spec.get()}) {
        const auto go = c->expect<proto::GameOver>();
        EXPECT_EQ(go.result.outcome, Outcome::RedWins);
        EXPECT_EQ(go.result.reason, "abandonment");
        EXPECT_EQ(go.result.text, "Black left and did not return: Red wins");
        EXPECT_EQ(go.ply, 1);
    }
    // The game is over: the abandoned seat is freed, and claiming again is refused.
    const auto after = fresh_info(*t.spec, t.table);
    EXPECT_FALSE(after.black.has_value());
    EXPECT_EQ(after.status, proto::TableStatus::Over);
    t.red->send(proto::ClaimWin{t.table});
    t.red->expect_error(ErrorCode::NoClaim);
    // A rematch starts without Bob: colours swap, his old seat stays empty.
    t.red->send(proto::NewGame{t.table});
    const auto rematch = t.red->expect<proto::TableSnapshot>();
    EXPECT_EQ(rematch.you, proto::Role::Black);
    EXPECT_FALSE(rematch.table.red.has_value());
    EXPECT_EQ(rematch.table.status, proto::TableStatus::Waiting);
    EXPECT_EQ(rematch.ply, 0);
}

TEST(Seats, KeepWaitingThenThePlayerReturnsAndPlaysOn) {
    TestServer s;
    Trio t = seat_three(s, grace_s(0));  // abandoned at once
    const std::string token = t.black->welcome.resume_token;
    t.red->send(proto::MoveRequest{t.table, 0, "h2e2"});
    t.black->expect<proto::MoveMade>();
    t.black.reset();
    EXPECT_EQ(t.red->expect<proto::PlayerLeft>().grace_ms, std::optional<std::int64_t>(0));
    EXPECT_TRUE(t.red->expect<proto::SeatAbandoned>().claimable);
    // Red keeps waiting. Bob comes back with his token.
    auto back = std::make_unique<Client>(s.port());
    back->send(proto::Hello{"bob", proto::PROTOCOL_VERSION, token});
    EXPECT_TRUE(back->expect<proto::Welcome>().resumed);
    const auto snap = back->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.you, proto::Role::Black);
    EXPECT_EQ(snap.ply, 1);
    ASSERT_TRUE(snap.table.black.has_value());
    EXPECT_TRUE(snap.table.black->connected);
    EXPECT_FALSE(snap.table.black->abandoned);
    EXPECT_EQ(t.red->expect<proto::PlayerReturned>().name, "bob");
    // Exactly one snapshot on return.
    EXPECT_EQ(count_of<proto::TableSnapshot>(back->until_pong()), 0);
    // The seat is no longer abandoned: no claim; the game goes on.
    t.red->send(proto::ClaimWin{t.table});
    t.red->expect_error(ErrorCode::NoClaim);
    back->send(proto::MoveRequest{t.table, 1, "h9g7"});
    EXPECT_EQ(t.red->expect<proto::MoveMade>().ply, 2);
    EXPECT_EQ(t.spec->expect_ply(2).by, BLACK);
}

TEST(Seats, BothPlayersGoneEndsTheGameDrawn) {
    TestServer s;
    Trio t = seat_three(s, grace_s(0));
    t.red->send(proto::MoveRequest{t.table, 0, "h2e2"});
    t.spec->expect<proto::MoveMade>();
    t.red.reset();
    t.spec->expect<proto::SeatAbandoned>();
    t.black.reset();
    const auto go = t.spec->expect<proto::GameOver>();
    EXPECT_EQ(go.result.outcome, Outcome::Draw);
    EXPECT_EQ(go.result.reason, "abandonment");
    const auto info = fresh_info(*t.spec, t.table);
    EXPECT_FALSE(info.red.has_value());
    EXPECT_FALSE(info.black.has_value());
}

TEST(Seats, AnAiOpponentTakesTheWinAtOnce) {
    TestServer s;
    auto alice = Client::login(s.port(), "alice");
    alice->send(proto::CreateTable{"", proto::Role::Red, "", grace_s(0)});
    const auto table = alice->expect<proto::TableSnapshot>().table.id;
    alice->send(proto::RequestAi{table, BLACK, 1});
    auto carol = Client::login(s.port(), "carol");
    carol->send(proto::Join{table, proto::Role::Spectator});
    carol->expect<proto::TableSnapshot>();
    alice.reset();
    EXPECT_EQ(carol->expect<proto::SeatAbandoned>().seat, RED);
    const auto go = carol->expect<proto::GameOver>();
    EXPECT_EQ(go.result.outcome, Outcome::BlackWins);
    EXPECT_EQ(go.result.reason, "abandonment");
}

TEST(Seats, TheAiHoldsAnAbandonedSeatAndHandsItBack) {
    auto cfg = test_config();
    // An AI never moves sooner than this after the position arose: long enough for the
    // player to come back while the AI still holds a move (which must then be dropped).
    cfg.ai_min_move = 1200ms;
    TestServer s(cfg);
    Trio t = seat_three(s, grace_s(0, AbandonPolicy::Ai, 2));
    const std::string token = t.black->welcome.resume_token;
    t.red->send(proto::MoveRequest{t.table, 0, "h2e2"});
    t.black->expect<proto::MoveMade>();
    t.black.reset();
    const auto ab = t.red->expect<proto::SeatAbandoned>();
    EXPECT_FALSE(ab.claimable);
    EXPECT_EQ(ab.hold_level, 2);
    // The AI plays Black's move, through the referee like anyone's.
    const auto ai_move = t.spec->expect_ply(2, 10'000ms);
    EXPECT_EQ(ai_move.by, BLACK);
    EXPECT_EQ(t.red->expect_ply(2).move, ai_move.move);
    auto info = fresh_info(*t.spec, t.table);
    ASSERT_TRUE(info.black.has_value());
    EXPECT_EQ(info.black->name, "bob");
    EXPECT_TRUE(info.black->abandoned);
    EXPECT_EQ(info.black->hold_level, 2);
    EXPECT_EQ(info.black->ai_level, 0);  // still Bob's seat, not an AI seat
    // No claim against a held seat.
    t.red->send(proto::ClaimWin{t.table});
    t.red->expect_error(ErrorCode::NoClaim);

    // Red moves; the AI starts on Black's reply, and Bob comes back before it is played.
    Game g;
    g.play(Move(square_from_string("h2"), square_from_string("e2")));
    g.play(Move(square_from_string(ai_move.move.substr(0, 2)), square_from_string(ai_move.move.substr(2, 2))));
    const std::string red_move = move_to_iccs(g.legal_moves()[0]);
    g.play(g.legal_moves()[0]);
    t.red->send(proto::MoveRequest{t.table, 2, red_move});
    t.spec->expect_ply(3);
    auto back = std::make_unique<Client>(s.port());
    back->send(proto::Hello{"bob", proto::PROTOCOL_VERSION, token});
    EXPECT_TRUE(back->expect<proto::Welcome>().resumed);
    const auto snap = back->expect<proto::TableSnapshot>();
    EXPECT_EQ(snap.ply, 3);
    EXPECT_EQ(snap.you, proto::Role::Black);
    ASSERT_TRUE(snap.table.black.has_value());
    EXPECT_EQ(snap.table.black->hold_level, 0);
    EXPECT_FALSE(snap.table.black->abandoned);
    EXPECT_EQ(t.spec->expect<proto::PlayerReturned>().name, "bob");
    // Past the AI's earliest move time: it must not have moved for Bob.
    std::this_thread::sleep_for(1400ms);
    for (const auto& m : t.spec->until_pong()) {
        EXPECT_FALSE(std::holds_alternative<proto::MoveMade>(m)) << "the AI moved after the player returned";
        EXPECT_FALSE(std::holds_alternative<proto::GameOver>(m));
    }
    // Bob plays his own move, and the game goes on.
    const std::string bob_move = move_to_iccs(g.legal_moves()[0]);
    back->send(proto::MoveRequest{t.table, 3, bob_move});
    const auto mm = t.spec->expect_ply(4);
    EXPECT_EQ(mm.move, bob_move);
    EXPECT_EQ(mm.by, BLACK);
}

}  // namespace xq::test
