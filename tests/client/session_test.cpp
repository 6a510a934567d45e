// The protocol session: server lines in, client state and cues out, lines back.
#include <gtest/gtest.h>

#include "core/move_text.h"
#include "core/session.h"
#include "protocol/codec.h"

using namespace xq;
using namespace xq::client;

namespace {

struct SessionTest : ::testing::Test {
    ClientState state;
    Session session{state};

    void feed(const proto::ServerMessage& m) { session.handle_line(proto::encode(m)); }
    std::vector<std::string> sent_types() {
        std::vector<std::string> out;
        for (const std::string& line : session.take_outbox()) {
            std::string l = line;
            if (!l.empty() && l.back() == '\n') l.pop_back();
            auto d = proto::decode_client(l);
            EXPECT_TRUE(d.ok()) << line;
            if (d.ok()) out.emplace_back(proto::type_name(d.value()));
        }
        return out;
    }
    bool has_cue(Cue::Kind k) {
        for (const Cue& c : session.take_cues())
            if (c.kind == k) return true;
        return false;
    }
    void join_red_table(std::vector<std::string> moves = {}) {
        proto::Welcome w;
        w.name = "alice";
        w.server = "test";
        feed(w);
        session.take_outbox();
        proto::TableSnapshot s;
        s.table.id = 7;
        s.table.name = "t7";
        s.table.red = proto::SeatInfo{"alice", 0, true};
        s.table.black = proto::SeatInfo{"AI", 5, true};
        s.table.status = proto::TableStatus::Playing;
        s.you = proto::Role::Red;
        s.moves = std::move(moves);
        s.ply = int(s.moves.size());
        feed(s);
    }
    proto::MoveMade move_made(int ply, const char* mv, Color by) {
        Game g;
        for (const MoveEntry& e : state.table.moves) g.play(e.move);
        const Move m(square_from_string(std::string_view(mv, 2)), square_from_string(std::string_view(mv + 2, 2)));
        g.play(m);
        proto::MoveMade mm;
        mm.table = 7;
        mm.ply = ply;
        mm.move = mv;
        mm.fen = g.position().fen();
        mm.by = by;
        mm.chinese = "炮二平五";
        mm.wxf = "C2.5";
        return mm;
    }
};

}  // namespace

TEST_F(SessionTest, HelloThenWelcomeAsksForTheLobby) {
    session.hello("alice");
    EXPECT_EQ(sent_types(), std::vector<std::string>{"hello"});
    EXPECT_EQ(state.connection, Connection::Handshake);
    proto::Welcome w;
    w.name = "alice";
    w.server = "club";
    w.resume_token = "00112233445566778899aabbccddeeff";
    feed(w);
    EXPECT_EQ(state.connection, Connection::Ready);
    EXPECT_EQ(state.server_name, "club");
    EXPECT_EQ(state.resume_token, "00112233445566778899aabbccddeeff");
    EXPECT_TRUE(has_cue(Cue::Kind::Welcome));
    EXPECT_EQ(sent_types(), (std::vector<std::string>{"list_tables", "list_users"}));
    EXPECT_EQ(session.received("welcome"), 1);
}

TEST_F(SessionTest, SnapshotSeatsUsAndLoadsTheBoard) {
    join_red_table({"h2e2", "h9g7"});
    EXPECT_TRUE(has_cue(Cue::Kind::TableJoined));
    EXPECT_EQ(state.table.id, 7);
    EXPECT_EQ(state.table.board.ply(), 2);
    EXPECT_EQ(state.table.board.seat(), RED);
    EXPECT_FALSE(state.table.board.flipped());
    EXPECT_TRUE(state.table.board.my_turn());
    EXPECT_EQ(state.table.seats[BLACK].ai_level, 5);
    ASSERT_EQ(state.table.moves.size(), 2u);
    EXPECT_EQ(state.table.moves[1].iccs, "h9g7");
}

// Registered players' ratings come with the users list and the seat infos.
TEST_F(SessionTest, RatingsReachTheUserListAndTheSeats) {
    join_red_table();
    proto::Users u;
    u.users = {proto::UserInfo{"alice", 7}, proto::UserInfo{"mei", 0}};
    u.users[1].rating = 1612;
    feed(u);
    ASSERT_EQ(state.lobby.users.size(), 2u);
    EXPECT_EQ(state.lobby.users[0].rating, std::nullopt);
    EXPECT_EQ(state.lobby.users[1].rating, std::optional<int>(1612));
    proto::TableUpdate up;
    up.table.id = 7;
    up.table.name = "t7";
    up.table.red = proto::SeatInfo{"alice", 0, true};
    up.table.black = proto::SeatInfo{"mei", 0, true};
    up.table.black->rating = 1612;
    up.table.status = proto::TableStatus::Playing;
    feed(up);
    EXPECT_EQ(state.table.seats[BLACK].rating, std::optional<int>(1612));
    EXPECT_EQ(seat_label(Lang::English, state.table.seats[BLACK], "alice"), "mei (1612)");
    EXPECT_EQ(state.table.seats[RED].rating, std::nullopt);
}

TEST_F(SessionTest, MoveIntentAndServerMove) {
    join_red_table();
    session.take_cues();
    session.move(Move(square_from_string("h2"), square_from_string("e2")));
    const auto lines = session.take_outbox();
    ASSERT_EQ(lines.size(), 1u);
    std::string l = lines[0];
    l.pop_back();
    auto d = proto::decode_client(l);
    ASSERT_TRUE(d.ok());
    const auto& req = std::get<proto::MoveRequest>(d.value());
    EXPECT_EQ(req.move, "h2e2");
    EXPECT_EQ(req.ply, 0);
    EXPECT_EQ(req.table, 7u);
    EXPECT_EQ(state.table.board.ply(), 0) << "the board changes only on move_made";

    feed(move_made(1, "h2e2", RED));
    EXPECT_EQ(state.table.board.ply(), 1);
    ASSERT_EQ(state.table.moves.size(), 1u);
    EXPECT_EQ(state.table.moves[0].text(MoveNotation::Chinese), "炮二平五");
    EXPECT_EQ(state.table.moves[0].text(MoveNotation::Wxf), "C2.5");
    EXPECT_EQ(state.table.moves[0].text(MoveNotation::Iccs), "h2e2");
    auto cues = session.take_cues();
    ASSERT_EQ(cues.size(), 1u);
    EXPECT_EQ(cues[0].kind, Cue::Kind::MovePlayed);
    EXPECT_EQ(cues[0].piece, R_CANNON);
    EXPECT_FALSE(state.table.board.my_turn());

    // The same move again (a resend) changes nothing.
    feed(move_made(1, "h2e2", RED));
    EXPECT_EQ(state.table.board.ply(), 1);
    EXPECT_TRUE(session.take_cues().empty());
}

TEST_F(SessionTest, AiProgressKeepsOnlyALegalLineForTheBoard) {
    join_red_table();
    feed(move_made(1, "h2e2", RED));
    proto::AiProgress p;
    p.table = 7;
    p.seat = BLACK;
    p.depth = 9;
    p.score = -20;
    p.percent = 40;
    p.pv = {"h9g7", "h0g2", "a9a5"};  // the third is not legal (the pawn on a6 blocks the rook)
    feed(p);
    ASSERT_TRUE(state.table.ai.active);
    EXPECT_EQ(state.table.ai.depth, 9);
    ASSERT_EQ(state.table.ai.pv.size(), 2u);
    EXPECT_EQ(pv_texts(state.table.board.position(), state.table.ai.pv, MoveNotation::Chinese),
              (std::vector<std::string>{"马8进7", "马二进三"}));
    // A line for another position (Red is not to move here) shows no moves; the move ends it.
    p.seat = RED;
    feed(p);
    EXPECT_TRUE(state.table.ai.pv.empty());
    feed(move_made(2, "h9g7", BLACK));
    EXPECT_FALSE(state.table.ai.active);
}

TEST_F(SessionTest, DivergenceRequestsASnapshot) {
    join_red_table();
    session.take_cues();
    proto::MoveMade mm = move_made(1, "h2e2", RED);
    mm.fen = std::string(START_FEN);  // the server's position differs from ours
    feed(mm);
    EXPECT_EQ(state.table.board.ply(), 0);
    EXPECT_TRUE(has_cue(Cue::Kind::Resync));
    EXPECT_EQ(sent_types(), std::vector<std::string>{"sync"});

    // A fresh snapshot restores agreement.
    proto::TableSnapshot s;
    s.table.id = 7;
    s.table.red = proto::SeatInfo{"alice", 0, true};
    s.table.status = proto::TableStatus::Playing;
    s.you = proto::Role::Red;
    s.moves = {"h2e2"};
    s.ply = 1;
    feed(s);
    EXPECT_EQ(state.table.board.ply(), 1);
}

TEST_F(SessionTest, LongSnapshotArrivesInParts) {
    join_red_table();
    proto::TableSnapshot s;
    s.table.id = 7;
    s.table.red = proto::SeatInfo{"alice", 0, true};
    s.table.status = proto::TableStatus::Playing;
    s.you = proto::Role::Red;
    s.moves = {"h2e2"};
    s.ply = 3;
    feed(s);
    EXPECT_EQ(state.table.board.ply(), 0) << "waits for the rest of the moves";
    proto::SnapshotMoves rest;
    rest.table = 7;
    rest.from = 1;
    rest.moves = {"h9g7", "h0g2"};
    feed(rest);
    EXPECT_EQ(state.table.board.ply(), 3);
}

TEST_F(SessionTest, GameOverOffersChatAndTakeback) {
    join_red_table({"h2e2", "h9g7"});
    session.take_cues();
    proto::DrawOffered d;
    d.table = 7;
    d.by = BLACK;
    feed(d);
    EXPECT_EQ(state.table.incoming_offer.kind, Offer::Kind::Draw);
    EXPECT_EQ(state.table.incoming_offer.from, "AI");
    session.answer_draw(false);
    EXPECT_EQ(state.table.incoming_offer.kind, Offer::Kind::None);
    EXPECT_EQ(sent_types(), std::vector<std::string>{"answer_draw"});
    // Our own offer echoed back is not a dialog for us.
    d.by = RED;
    feed(d);
    EXPECT_EQ(state.table.incoming_offer.kind, Offer::Kind::None);

    proto::TakebackDone tb;
    tb.table = 7;
    tb.plies = 2;
    tb.ply = 0;
    tb.fen = std::string(START_FEN);
    feed(tb);
    EXPECT_EQ(state.table.board.ply(), 0);
    EXPECT_TRUE(state.table.moves.empty());

    proto::ChatLine c;
    c.scope = proto::ChatScope::Table;
    c.table = 7;
    c.from = "bob";
    c.text = "好棋";
    feed(c);
    ASSERT_EQ(state.table.chat.size(), 1u);
    EXPECT_EQ(state.table.chat.back().text, "好棋");
    c.scope = proto::ChatScope::Lobby;
    feed(c);
    EXPECT_EQ(state.lobby.chat.size(), 1u);

    proto::GameOver go;
    go.table = 7;
    go.result.outcome = Outcome::BlackWins;
    go.result.reason = "resignation";
    go.result.text = "Red resigns";
    feed(go);
    EXPECT_TRUE(state.table.result_shown);
    EXPECT_EQ(state.table.result_text, "Red resigns");
    EXPECT_FALSE(state.table.board.in_progress());
    EXPECT_TRUE(has_cue(Cue::Kind::GameOver));
}

TEST_F(SessionTest, PlayerLeavesAndReturns) {
    join_red_table();
    session.take_cues();
    proto::PlayerLeft pl;
    pl.table = 7;
    pl.name = "AI";
    pl.role = proto::Role::Black;
    pl.reason = proto::LeaveReason::Disconnected;
    feed(pl);
    EXPECT_FALSE(state.table.seats[BLACK].connected);
    auto cues = session.take_cues();
    ASSERT_EQ(cues.size(), 1u);
    EXPECT_EQ(cues[0].str, Str::OpponentLeft);
    EXPECT_EQ(cues[0].text, "AI");
    proto::PlayerReturned pr;
    pr.table = 7;
    pr.name = "AI";
    pr.role = proto::Role::Black;
    feed(pr);
    EXPECT_TRUE(state.table.seats[BLACK].connected);
}

TEST_F(SessionTest, BadLinesAreReportedNotThrown) {
    session.handle_line("{not json");
    session.handle_line(R"({"type":"no_such_type"})");
    session.handle_line(R"({"type":"move_made","table":"seven"})");
    auto cues = session.take_cues();
    ASSERT_EQ(cues.size(), 3u);
    for (const Cue& c : cues) EXPECT_EQ(c.kind, Cue::Kind::Error);
    EXPECT_EQ(session.received("invalid"), 3);
}

TEST_F(SessionTest, LobbyListsAndInvitations) {
    proto::Tables t;
    proto::TableInfo a;
    a.id = 1;
    a.name = "one";
    a.red = proto::SeatInfo{"bob", 0, true};
    t.tables = {a};
    t.more = true;
    feed(t);
    proto::TableInfo b;
    b.id = 2;
    b.status = proto::TableStatus::Playing;
    t.tables = {b};
    t.more = false;
    feed(t);
    ASSERT_EQ(state.lobby.tables.size(), 2u);
    EXPECT_EQ(state.lobby.tables[0].seats[RED].name, "bob");
    EXPECT_EQ(state.lobby.tables[1].status, "playing");
    proto::TableRemoved r;
    r.table = 1;
    feed(r);
    ASSERT_EQ(state.lobby.tables.size(), 1u);

    proto::InviteReceived inv;
    inv.table = 2;
    inv.from = "carol";
    feed(inv);
    ASSERT_TRUE(state.lobby.invitation.has_value());
    session.answer_invite(true);
    EXPECT_FALSE(state.lobby.invitation.has_value());
    EXPECT_EQ(sent_types(), std::vector<std::string>{"answer_invite"});
}

TEST_F(SessionTest, CreateTableSendsTheDialogsSettings) {
    TableRules r;
    r.clock = "fischer:300+3";
    r.grace_s = 30;
    r.abandon = AbandonRule::Ai;
    r.hold_level = 4;
    r.takebacks = false;
    session.create_table("Blitz", proto::Role::Black, &r);
    session.create_table("Plain", proto::Role::Red);
    const auto lines = session.take_outbox();
    ASSERT_EQ(lines.size(), 2u);
    auto d = proto::decode_client(lines[0].substr(0, lines[0].size() - 1));
    ASSERT_TRUE(d.ok()) << lines[0];
    const auto& c = std::get<proto::CreateTable>(d.value());
    EXPECT_EQ(c.name, "Blitz");
    EXPECT_EQ(c.as, proto::Role::Black);
    EXPECT_EQ(c.settings.clock, "fischer:300+3");
    EXPECT_EQ(c.settings.grace, 30);
    EXPECT_EQ(c.settings.abandon, proto::AbandonPolicy::Ai);
    EXPECT_EQ(c.settings.hold_level, 4);
    EXPECT_EQ(c.settings.takebacks, false);
    EXPECT_EQ(lines[1].find("settings"), std::string::npos) << "no rules: the server's defaults";
}

TEST_F(SessionTest, TableListCarriesTheTimeControl) {
    proto::Tables t;
    proto::TableInfo a;
    a.id = 3;
    a.name = "blitz";
    a.settings = proto::TableSettings{"asian:600/60/30", 90, proto::AbandonPolicy::Ai, 6, false};
    t.tables = {a};
    feed(t);
    ASSERT_EQ(state.lobby.tables.size(), 1u);
    const TableRules& r = state.lobby.tables[0].rules;
    EXPECT_EQ(r.clock, "asian:600/60/30");
    EXPECT_EQ(r.grace_s, 90);
    EXPECT_EQ(r.abandon, AbandonRule::Ai);
    EXPECT_EQ(r.hold_level, 6);
    EXPECT_FALSE(r.takebacks);
    EXPECT_EQ(clock_words(Lang::English, r.clock), "Asian 10 min/60 s/30 s");
}

TEST_F(SessionTest, PasswordEnginesAndPong) {
    session.hello("alice", "", "sesame");
    auto lines = session.take_outbox();
    ASSERT_EQ(lines.size(), 1u);
    auto d = proto::decode_client(lines[0].substr(0, lines[0].size() - 1));
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(std::get<proto::Hello>(d.value()).password, "sesame");

    proto::Welcome w;
    w.name = "alice";
    w.engines = {"fairy-stockfish", "pikafish"};
    feed(w);
    EXPECT_EQ(state.engines, (std::vector<std::string>{"fairy-stockfish", "pikafish"}));
    session.take_outbox();

    // The server's idle check is answered at once, with its id.
    session.handle_line(R"({"type":"ping","id":42})");
    lines = session.take_outbox();
    ASSERT_EQ(lines.size(), 1u);
    auto pong = proto::decode_client(lines[0].substr(0, lines[0].size() - 1));
    ASSERT_TRUE(pong.ok()) << lines[0];
    ASSERT_TRUE(std::holds_alternative<proto::Pong>(pong.value())) << lines[0];
    EXPECT_EQ(std::get<proto::Pong>(pong.value()).id, 42);
}

TEST_F(SessionTest, RequestAiNamesTheEngineAndSeatsShowIt) {
    join_red_table();
    state.table.seats[BLACK] = {};
    session.request_ai(BLACK, 3, "fairy-stockfish");
    auto lines = session.take_outbox();
    ASSERT_EQ(lines.size(), 1u);
    auto d = proto::decode_client(lines[0].substr(0, lines[0].size() - 1));
    ASSERT_TRUE(d.ok());
    const auto& r = std::get<proto::RequestAi>(d.value());
    EXPECT_EQ(r.engine, "fairy-stockfish");
    EXPECT_EQ(r.level, 3);
    proto::PlayerJoined pj;
    pj.table = 7;
    pj.name = "fairy-stockfish";
    pj.role = proto::Role::Black;
    pj.ai_level = 3;
    pj.engine = "fairy-stockfish";
    feed(pj);
    EXPECT_EQ(seat_label(Lang::English, state.table.seats[BLACK], "alice"), "fairy-stockfish (level 3)");
    session.request_ai(BLACK, 3);
    lines = session.take_outbox();
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0].find("engine"), std::string::npos) << "the built-in AI names no engine";
}

TEST_F(SessionTest, ErrorsCarryTheirCode) {
    session.handle_line(
        R"({"type":"error","code":"bad_settings","message":"fischer clock needs a base time above 0","request":"create_table"})");
    auto cues = session.take_cues();
    ASSERT_EQ(cues.size(), 1u);
    EXPECT_EQ(cues[0].kind, Cue::Kind::Error);
    EXPECT_EQ(cues[0].code, "bad_settings");
    EXPECT_EQ(cues[0].request, "create_table");
    EXPECT_EQ(state.last_error_code, "bad_settings");
    EXPECT_EQ(server_error_text(Lang::Chinese, cues[0].code, cues[0].request, cues[0].text), "棋桌设置无效");
    EXPECT_EQ(server_error_text(Lang::English, cues[0].code, cues[0].request, cues[0].text),
              "Table settings refused: fischer clock needs a base time above 0");
    // With the detail code the words come from the client's own tables, in either language.
    session.handle_line(
        R"({"type":"error","code":"bad_settings","message":"fischer clock needs a base time above 0","request":"create_table","detail":"clock_zero"})");
    cues = session.take_cues();
    ASSERT_EQ(cues.size(), 1u);
    EXPECT_EQ(cues[0].detail, "clock_zero");
    EXPECT_EQ(server_error_text(Lang::Chinese, cues[0].code, cues[0].request, cues[0].text, cues[0].detail),
              "棋桌设置无效：计时需要大于 0 的基本时间（读秒制也可用读秒）");
}

namespace {

proto::TableSnapshot playing_snapshot(proto::AbandonPolicy policy) {
    proto::TableSnapshot s;
    s.table.id = 7;
    s.table.red = proto::SeatInfo{"alice", 0, true};
    s.table.black = proto::SeatInfo{"bob", 0, true};
    s.table.status = proto::TableStatus::Playing;
    s.table.settings = proto::TableSettings{"fischer:300+5", 60, policy, 5, true};
    s.you = proto::Role::Red;
    return s;
}

}  // namespace

TEST_F(SessionTest, OpponentDropsCountdownThenClaim) {
    proto::Welcome w;
    w.name = "alice";
    feed(w);
    feed(playing_snapshot(proto::AbandonPolicy::Claim));
    session.take_cues();
    session.take_outbox();

    proto::PlayerLeft pl;
    pl.table = 7;
    pl.name = "bob";
    pl.role = proto::Role::Black;
    pl.reason = proto::LeaveReason::Disconnected;
    pl.grace_ms = 58'000;
    feed(pl);
    const SeatInfo& bob = state.table.seats[BLACK];
    EXPECT_FALSE(bob.connected);
    const auto now = std::chrono::steady_clock::now();
    const std::int64_t left = bob.grace_left_ms(now);
    EXPECT_GT(left, 57'000);
    EXPECT_LE(left, 58'000);
    EXPECT_EQ(seat_notice(Lang::English, bob, now), "bob lost connection — seat kept 0:58");
    EXPECT_FALSE(state.table.claim_open) << "nothing to claim while the grace runs";

    // A table_update that does not repeat grace_ms keeps the countdown running.
    proto::TableUpdate u;
    u.table = playing_snapshot(proto::AbandonPolicy::Claim).table;
    u.table.black->connected = false;
    feed(u);
    EXPECT_GT(state.table.seats[BLACK].grace_left_ms(now), 57'000);

    proto::SeatAbandoned sa;
    sa.table = 7;
    sa.seat = BLACK;
    sa.name = "bob";
    sa.claimable = true;
    feed(sa);
    EXPECT_TRUE(state.table.seats[BLACK].abandoned);
    EXPECT_TRUE(state.table.claim_open);
    EXPECT_TRUE(state.table.claim_possible);
    EXPECT_TRUE(has_cue(Cue::Kind::Offer));

    session.keep_waiting();
    EXPECT_FALSE(state.table.claim_open);
    EXPECT_TRUE(state.table.claim_possible) << "the win can still be claimed later";
    session.claim_win();
    EXPECT_EQ(sent_types(), std::vector<std::string>{"claim_win"});

    proto::GameOver go;
    go.table = 7;
    go.result.outcome = Outcome::RedWins;
    go.result.reason = "abandonment";
    go.result.text = "Black abandoned the game";
    feed(go);
    EXPECT_FALSE(state.table.claim_possible);
    EXPECT_FALSE(state.table.claim_open);
}

TEST_F(SessionTest, AiHoldsTheSeatUntilThePlayerReturns) {
    proto::Welcome w;
    w.name = "alice";
    feed(w);
    feed(playing_snapshot(proto::AbandonPolicy::Ai));
    session.take_cues();
    proto::SeatAbandoned sa;
    sa.table = 7;
    sa.seat = BLACK;
    sa.name = "bob";
    sa.claimable = false;
    sa.hold_level = 5;
    feed(sa);
    EXPECT_FALSE(state.table.claim_open) << "no claim question when the AI holds the seat";
    const auto cues = session.take_cues();
    ASSERT_EQ(cues.size(), 1u);
    EXPECT_EQ(tr(Lang::English, cues[0].str, {cues[0].text, cues[0].arg2}), "AI (level 5) plays for bob until they return");
    EXPECT_EQ(seat_notice(Lang::Chinese, state.table.seats[BLACK], std::chrono::steady_clock::now()),
              "电脑（5级）代 bob 下棋，直到其回来");

    proto::PlayerReturned pr;
    pr.table = 7;
    pr.name = "bob";
    pr.role = proto::Role::Black;
    feed(pr);
    const SeatInfo& bob = state.table.seats[BLACK];
    EXPECT_TRUE(bob.connected);
    EXPECT_FALSE(bob.abandoned);
    EXPECT_EQ(bob.hold_level, 0);
    EXPECT_EQ(seat_notice(Lang::English, bob, std::chrono::steady_clock::now()), "");
}

TEST_F(SessionTest, SpectatorArrivingLateSeesTheCountdown) {
    proto::Welcome w;
    w.name = "carol";
    feed(w);
    proto::TableSnapshot s = playing_snapshot(proto::AbandonPolicy::Claim);
    s.you = proto::Role::Spectator;
    s.table.black->connected = false;
    s.table.black->grace_ms = 30'000;
    feed(s);
    const auto now = std::chrono::steady_clock::now();
    EXPECT_EQ(seat_notice(Lang::English, state.table.seats[BLACK], now), "bob lost connection — seat kept 0:30");
    proto::SeatAbandoned sa;
    sa.table = 7;
    sa.seat = BLACK;
    sa.name = "bob";
    sa.claimable = true;
    feed(sa);
    EXPECT_FALSE(state.table.claim_open) << "a spectator cannot claim";
    EXPECT_FALSE(state.table.claim_possible);
    EXPECT_NE(seat_notice(Lang::English, state.table.seats[BLACK], now).find("did not come back"), std::string::npos);
}

TEST_F(SessionTest, LateArrivalAtAnAbandonedSeatAsksTheOpponent) {
    // Alice reconnects (resume) after bob's grace ran out: the snapshot alone opens the question.
    proto::Welcome w;
    w.name = "alice";
    feed(w);
    proto::TableSnapshot s = playing_snapshot(proto::AbandonPolicy::Claim);
    s.table.black->connected = false;
    s.table.black->abandoned = true;
    feed(s);
    EXPECT_TRUE(state.table.claim_open);
}

// ---- Game archive (list_games / get_game) ------------------------------------------------

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

// A server notice is marked as the server's own (never a user's chat line) and reaches the
// lobby chat and, at a table, the table chat.
TEST_F(SessionTest, ServerNoticeIsNotAChatLineFromAName) {
    join_red_table();
    feed(proto::Notice{"the server restarts at 22:00"});
    ASSERT_EQ(state.lobby.chat.size(), 1u);
    EXPECT_TRUE(state.lobby.chat.back().notice);
    EXPECT_EQ(state.lobby.chat.back().text, "the server restarts at 22:00");
    EXPECT_EQ(state.lobby.chat.back().from, "");
    ASSERT_EQ(state.table.chat.size(), 1u);
    EXPECT_TRUE(state.table.chat.back().notice);
    proto::ChatLine c;
    c.from = "[server]";
    c.text = "fake";
    feed(c);
    EXPECT_FALSE(state.lobby.chat.back().notice);
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

namespace {

TEST_F(SessionTest, OurOfferWaitsForTheAnswerAndEndsWithIt) {
    join_red_table();
    session.offer_draw();
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::Draw);
    EXPECT_EQ(state.table.outgoing_offer.from, "AI");
    feed(proto::DrawAnswered{7, BLACK, false});
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::None);
    session.request_takeback();
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::Takeback);
    feed(move_made(1, "h2e2", RED));
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::None) << "offers die when the position changes";
}

// Our open offer can be withdrawn (the request names its kind) and is gone when the server
// says so; the opponent's withdrawn offer closes its dialog with a notice naming them.
TEST_F(SessionTest, OffersAreWithdrawn) {
    join_red_table({"h2e2", "h9g7"});
    session.take_outbox();
    session.withdraw_offer();
    EXPECT_TRUE(sent_types().empty()) << "no open offer: nothing to withdraw";
    session.offer_draw();
    session.take_outbox();
    session.withdraw_offer();
    const auto out = session.take_outbox();
    ASSERT_EQ(out.size(), 1u);
    const auto d = proto::decode_client(std::string_view(out[0]).substr(0, out[0].size() - 1));
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(std::get<proto::WithdrawOffer>(d.value()).offer, proto::OfferKind::Draw);
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::Draw) << "until the server confirms";
    feed(proto::OfferWithdrawn{7, RED, proto::OfferKind::Draw});
    EXPECT_EQ(state.table.outgoing_offer.kind, Offer::Kind::None);

    session.take_cues();
    feed(proto::TakebackRequested{7, BLACK});
    EXPECT_EQ(state.table.incoming_offer.kind, Offer::Kind::Takeback);
    feed(proto::OfferWithdrawn{7, BLACK, proto::OfferKind::Takeback});
    EXPECT_EQ(state.table.incoming_offer.kind, Offer::Kind::None);
    bool told = false;
    for (const Cue& c : session.take_cues())
        told |= c.kind == Cue::Kind::Notice && c.str == Str::TakebackWithdrawn && c.text == "AI";
    EXPECT_TRUE(told);
}

TEST_F(SessionTest, ANewGameThatSwapsColoursSaysSo) {
    join_red_table();
    session.take_cues();
    proto::TableSnapshot s;
    s.table.id = 7;
    s.table.name = "t7";
    s.table.red = proto::SeatInfo{"AI", 5, true};
    s.table.black = proto::SeatInfo{"alice", 0, true};
    s.table.status = proto::TableStatus::Waiting;
    s.you = proto::Role::Black;
    feed(s);
    bool told = false;
    for (const Cue& c : session.take_cues()) told |= c.kind == Cue::Kind::Notice && c.str == Str::NowBlack;
    EXPECT_TRUE(told);
    EXPECT_EQ(state.table.board.seat(), BLACK);
}

}  // namespace

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
