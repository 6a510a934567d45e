// The protocol session in the lobby: tables and users, invitations, creating a table with
// its rules, password, engines and pings, the AI asked for a seat, errors and server notices.
#include <gtest/gtest.h>

#include "session_fixture.h"

using namespace xq;
using namespace xq::client;

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
    ASSERT_EQ(state.lobby.invitations.size(), 1u);
    session.answer_invite(true);
    EXPECT_TRUE(state.lobby.invitations.empty());
    EXPECT_EQ(sent_types(), std::vector<std::string>{"answer_invite"});
}

// The server's lists come a page at a time (PROTOCOL.md, Lobby lists): a later page adds to
// the list (an entry seen again as the list shifted is kept once), the next page is asked
// for from where the last one ended, and a page from the start replaces the list.
TEST_F(SessionTest, LobbyPagesAddUpAndTheNextPageIsAskedFor) {
    proto::Users u;
    u.users = {proto::UserInfo{"amy", 0}, proto::UserInfo{"bo", 0}};
    u.total = 5;
    feed(u);
    EXPECT_EQ(state.lobby.users_next, 2);
    EXPECT_EQ(state.lobby.users_total, 5);
    session.more_users();
    const auto sent = session.take_outbox();
    ASSERT_EQ(sent.size(), 1u);
    auto d = proto::decode_client(sent[0].substr(0, sent[0].size() - 1));
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(std::get<proto::ListUsers>(d.value()).offset, 2);
    u.users = {proto::UserInfo{"bo", 4}, proto::UserInfo{"cy", 0}, proto::UserInfo{"di", 3}};  // bo sat down meanwhile
    u.offset = 2;
    feed(u);
    ASSERT_EQ(state.lobby.users.size(), 4u);
    EXPECT_EQ(state.lobby.users[1].name, "bo");
    EXPECT_EQ(state.lobby.users[1].table, 4);
    EXPECT_EQ(state.lobby.users[3].name, "di");
    EXPECT_EQ(state.lobby.users_next, 5);
    u.users = {proto::UserInfo{"ed", 0}};
    u.offset = 0;
    u.total = 1;
    feed(u);
    ASSERT_EQ(state.lobby.users.size(), 1u);
    EXPECT_EQ(state.lobby.users[0].name, "ed");

    proto::Tables t;
    proto::TableInfo a;
    a.id = 3;
    t.tables = {a};
    t.total = 150;
    feed(t);
    a.id = 9;
    t.tables = {a};
    t.offset = 100;
    feed(t);
    ASSERT_EQ(state.lobby.tables.size(), 2u);
    EXPECT_EQ(state.lobby.tables_next, 101);
    session.more_tables();
    const auto more = session.take_outbox();
    ASSERT_EQ(more.size(), 1u);
    d = proto::decode_client(more[0].substr(0, more[0].size() - 1));
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(std::get<proto::ListTables>(d.value()).offset, 101);
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

// The create dialog as it opens chooses the server's defaults: its request carries no
// clock, grace, abandon, hold level, takebacks or hints, so a server started with
// --clock fischer:300+5 gives the table that clock (it used to get "none", 60 s, claim,
// takebacks sent as chosen). Once the user picks them they are sent.
TEST_F(SessionTest, AFreshCreateFormLeavesTheSettingsToTheServer) {
    CreateTableForm f;
    const TableRules fresh = f.rules();
    session.create_table("Plain", proto::Role::Red, &fresh);
    std::string bad;
    ASSERT_TRUE(f.apply("clock=none grace=60", bad)) << bad;
    const TableRules chosen = f.rules();
    session.create_table("Chosen", proto::Role::Red, &chosen);
    ASSERT_TRUE(f.apply("clock=default grace=default", bad)) << bad;
    EXPECT_EQ(f.rules(), fresh) << "clock=default grace=default goes back to the server's";
    const auto lines = session.take_outbox();
    ASSERT_EQ(lines.size(), 2u);
    for (const char* field : {"clock", "grace", "abandon", "hold_level", "takebacks", "hints"})
        EXPECT_EQ(lines[0].find(std::string("\"") + field + "\""), std::string::npos) << field << " sent: " << lines[0];
    auto d = proto::decode_client(lines[1].substr(0, lines[1].size() - 1));
    ASSERT_TRUE(d.ok()) << lines[1];
    const auto& c = std::get<proto::CreateTable>(d.value());
    EXPECT_EQ(c.settings.clock, "none") << "no clock, chosen, is sent";
    EXPECT_EQ(c.settings.grace, 60);
    EXPECT_FALSE(c.settings.abandon) << "claim is the protocol's default";
    EXPECT_FALSE(c.settings.takebacks) << "takebacks on is the protocol's default";
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

// Leaving a table asks for both lobby lists: users who arrived while we sat at the table
// were told only to the lobby, so our user list was missing them until Refresh.
TEST_F(SessionTest, LeavingATableRefreshesTheLobbysListsOfTablesAndUsers) {
    join_red_table();
    session.take_outbox();
    proto::LeftTable left;
    left.table = 7;
    feed(left);
    EXPECT_FALSE(state.table.joined());
    EXPECT_EQ(sent_types(), (std::vector<std::string>{"list_tables", "list_users"}));
}
