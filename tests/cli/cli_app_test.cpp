// The terminal client's core without a socket: board drawing, commands turned into
// protocol lines, server lines turned into state, and script waits.
#include <gtest/gtest.h>

#include <string>

#include "board_text.h"
#include "cli_app.h"
#include "protocol/codec.h"
#include "xiangqi/position.h"

namespace xq::client {
namespace {

proto::ClientMessage decode_one(const std::string& line) {
    auto d = proto::decode_client(line);
    EXPECT_TRUE(d.ok()) << line;
    return d.value();
}

std::string server_line(const proto::ServerMessage& m) { return proto::encode(m); }

// Seats the app at table 7 as `you` on the start position.
void seat(CliApp& app, proto::Role you) {
    proto::TableSnapshot s;
    s.table.id = 7;
    s.table.name = "t";
    s.you = you;
    s.start_fen = std::string(START_FEN);
    s.fen = std::string(START_FEN);
    s.ply = 0;
    app.handle_server_line(server_line(s));
}

CliOptions batch_options() {
    CliOptions o;
    o.name = "tester";
    o.batch = true;
    return o;
}

TEST(BoardText, StartPositionUnicode) {
    const Position pos;
    const std::string b = render_board(pos, Move::none(), BoardStyle{});
    // Black's back rank on top, Red's at the bottom, river in between.
    const auto top = b.find(" 9  ");
    const auto river = b.find("楚 河");
    const auto bottom = b.find(" 0  ");
    ASSERT_NE(top, std::string::npos);
    ASSERT_NE(river, std::string::npos);
    ASSERT_NE(bottom, std::string::npos);
    EXPECT_LT(top, river);
    EXPECT_LT(river, bottom);
    EXPECT_NE(b.find(" 9   車  馬  象  士  將  士  象  馬  車  9"), std::string::npos) << b;
    EXPECT_NE(b.find(" 0   俥  傌  相  仕  帥  仕  相  傌  俥  0"), std::string::npos) << b;
    EXPECT_EQ(b.find("\x1b["), std::string::npos);  // no colour unless asked
}

TEST(BoardText, LastMoveMarkedAndFlipped) {
    Position pos;
    const Move m(square_from_string("h2"), square_from_string("e2"));
    UndoInfo u;
    pos.do_move(m, u);
    BoardStyle ascii;
    ascii.unicode = false;
    const std::string b = render_board(pos, m, ascii);
    EXPECT_NE(b.find(" 2   .   C   .   .  [C ] .   .  (. ) .   2"), std::string::npos) << b;
    ascii.flipped = true;
    const std::string f = render_board(pos, m, ascii);
    EXPECT_LT(f.find(" 0  "), f.find(" 9  "));  // Red's back rank on top for Black
    EXPECT_NE(f.find(" 2   .  (. ) .   .  [C ] .   .   C   .   2"), std::string::npos) << f;
    EXPECT_NE(f.find("     i   h   g   f   e   d   c   b   a"), std::string::npos) << f;
}

TEST(BoardText, ColourMarksCheckAndPieces) {
    Position pos;
    ASSERT_EQ(pos.set_fen("3k5/9/9/9/9/9/9/9/3R5/4K4 b - - 0 1"), FenError::None);
    BoardStyle c;
    c.color = true;
    const std::string b = render_board(pos, Move::none(), c);
    EXPECT_NE(b.find("\x1b[41m"), std::string::npos);  // the checked black king
    EXPECT_NE(b.find("\x1b[1;31m俥"), std::string::npos);
}

TEST(CliApp, LobbyCommandsBecomeProtocolLines) {
    CliApp app(batch_options());
    auto r = app.handle_command("list");
    ASSERT_EQ(r.send.size(), 1u);
    EXPECT_TRUE(std::holds_alternative<proto::ListTables>(decode_one(r.send[0])));

    r = app.handle_command("create black Friday night");
    ASSERT_EQ(r.send.size(), 1u);
    const auto c = std::get<proto::CreateTable>(decode_one(r.send[0]));
    EXPECT_EQ(c.as, proto::Role::Black);
    EXPECT_EQ(c.name, "Friday night");

    r = app.handle_command("join 12 red");
    const auto j = std::get<proto::Join>(decode_one(r.send.at(0)));
    EXPECT_EQ(j.table, 12u);
    EXPECT_EQ(j.as, proto::Role::Red);

    r = app.handle_command("watch 3");
    EXPECT_EQ(std::get<proto::Join>(decode_one(r.send.at(0))).as, proto::Role::Spectator);

    r = app.handle_command("say 你好");
    const auto chat = std::get<proto::ChatSend>(decode_one(r.send.at(0)));
    EXPECT_EQ(chat.scope, proto::ChatScope::Lobby);
    EXPECT_EQ(chat.text, "你好");
}

// The lobby's lists come a page at a time (PROTOCOL.md, Lobby lists): `users 200` asks for the
// page from place 200, a page that ends before the list does says how to see the rest, and a
// bad offset sends nothing.
TEST(CliApp, ListsPageByOffsetAndSayWhatIsLeft) {
    CliOptions o;
    o.name = "tester";
    CliApp app(o);
    auto r = app.handle_command("users 200");
    ASSERT_EQ(r.send.size(), 1u);
    const auto u = std::get<proto::ListUsers>(decode_one(r.send[0]));
    EXPECT_EQ(u.offset, 200);
    EXPECT_EQ(u.limit, 0);
    r = app.handle_command("list 100");
    ASSERT_EQ(r.send.size(), 1u);
    EXPECT_EQ(std::get<proto::ListTables>(decode_one(r.send[0])).offset, 100);
    EXPECT_EQ(std::get<proto::ListUsers>(decode_one(app.handle_command("who").send.at(0))).offset, 0);
    for (const char* bad : {"users -1", "users lots", "list 1000001", "tables 5x"})
        EXPECT_TRUE(app.handle_command(bad).send.empty()) << bad;
    std::string out = app.take_output();
    EXPECT_NE(out.find("the offset must be a number 0-1000000"), std::string::npos) << out;

    app.handle_server_line(server_line(proto::Users{{proto::UserInfo{"amy", 0}, proto::UserInfo{"bo", 3}}, true, 200, 450}));
    out = app.take_output();
    EXPECT_NE(out.find("users: amy bo@3"), std::string::npos) << out;
    EXPECT_EQ(out.find("more"), std::string::npos) << "not before the page's last line: " << out;
    app.handle_server_line(server_line(proto::Users{{proto::UserInfo{"cy", 0}}, false, 202, 450}));
    out = app.take_output();
    EXPECT_NE(out.find("247 more users (450 in all): users 203"), std::string::npos) << out;
    app.handle_server_line(server_line(proto::Users{{proto::UserInfo{"zz", 0}}, false, 449, 450}));
    EXPECT_EQ(app.take_output().find("more"), std::string::npos);

    proto::TableInfo t;
    t.id = 9;
    t.name = "nine";
    app.handle_server_line(server_line(proto::Tables{{t}, false, 0, 101}));
    out = app.take_output();
    EXPECT_NE(out.find("#9 nine"), std::string::npos) << out;
    EXPECT_NE(out.find("100 more tables (101 in all): list 1"), std::string::npos) << out;
    app.handle_server_line(server_line(proto::Tables{{}, false, 0, 0}));
    EXPECT_NE(app.take_output().find("no tables yet"), std::string::npos);
}

TEST(CliApp, CreateCarriesTableSettingsAndClaimSendsClaimWin) {
    CliApp app(batch_options());
    auto r = app.handle_command("create red clock=fischer:300+5 grace=0 abandon=ai hold=7 takebacks=off hints=on Blitz room");
    ASSERT_EQ(r.send.size(), 1u);
    const auto c = std::get<proto::CreateTable>(decode_one(r.send[0]));
    EXPECT_EQ(c.as, proto::Role::Red);
    EXPECT_EQ(c.name, "Blitz room");
    EXPECT_EQ(c.settings.clock, "fischer:300+5");
    EXPECT_EQ(c.settings.grace, 0);
    EXPECT_EQ(c.settings.abandon, proto::AbandonPolicy::Ai);
    EXPECT_EQ(c.settings.hold_level, 7);
    EXPECT_EQ(c.settings.takebacks, false);
    EXPECT_EQ(c.settings.hints, std::optional<bool>(true));

    // Plain names still work, and bad settings send nothing and say why.
    r = app.handle_command("create Friday night");
    EXPECT_EQ(std::get<proto::CreateTable>(decode_one(r.send.at(0))).settings, proto::TableSettings{});
    EXPECT_TRUE(app.handle_command("create grace=9999 x").send.empty());
    EXPECT_TRUE(app.handle_command("create hold=0 x").send.empty());
    EXPECT_TRUE(app.handle_command("create abandon=robot x").send.empty());
    const std::string out = app.take_output();
    EXPECT_NE(out.find("grace must be 0-3600"), std::string::npos) << out;
    EXPECT_NE(out.find("hold must be"), std::string::npos) << out;
    EXPECT_NE(out.find("cannot read 'abandon=robot'"), std::string::npos) << out;

    EXPECT_TRUE(app.handle_command("claim").send.empty());  // not at a table
    seat(app, proto::Role::Red);
    r = app.handle_command("claim");
    ASSERT_EQ(r.send.size(), 1u);
    EXPECT_EQ(std::get<proto::ClaimWin>(decode_one(r.send[0])).table, 7u);
}

TEST(CliApp, InteractiveModeTellsTheSeatedOpponentItMayClaim) {
    CliOptions o = batch_options();
    o.batch = false;
    CliApp app(o);
    seat(app, proto::Role::Red);
    app.take_output();
    app.handle_server_line(server_line(proto::PlayerLeft{7, "bob", proto::Role::Black, proto::LeaveReason::Disconnected, 59001}));
    app.handle_server_line(server_line(proto::SeatAbandoned{7, BLACK, "bob", true, 0}));
    const std::string out = app.take_output();
    EXPECT_NE(out.find("the seat is kept for 60 s"), std::string::npos) << out;
    EXPECT_NE(out.find("type claim to take the win"), std::string::npos) << out;
    app.handle_server_line(server_line(proto::SeatAbandoned{7, BLACK, "bob", false, 4}));
    EXPECT_NE(app.take_output().find("the AI (level 4) plays for them"), std::string::npos);
}

TEST(CliApp, BadCommandsSendNothingAndSayWhy) {
    CliApp app(batch_options());
    EXPECT_TRUE(app.handle_command("join x").send.empty());
    EXPECT_TRUE(app.handle_command("h2e2").send.empty());  // not at a table
    EXPECT_TRUE(app.handle_command("ai green 3").send.empty());
    const std::string out = app.take_output();
    EXPECT_NE(out.find("expected a table number"), std::string::npos) << out;
    EXPECT_NE(out.find("not at a table"), std::string::npos) << out;
    EXPECT_NE(out.find("\"type\":\"cli_error\""), std::string::npos) << out;
}

TEST(CliApp, MovesInEveryNotationBecomeIccsWithThePly) {
    for (const char* text : {"h2e2", "H2-E2", "C2.5", "炮二平五", "move 炮二平五"}) {
        CliApp app(batch_options());
        seat(app, proto::Role::Red);
        const auto r = app.handle_command(text);
        ASSERT_EQ(r.send.size(), 1u) << text << ": " << app.take_output();
        const auto m = std::get<proto::MoveRequest>(decode_one(r.send[0]));
        EXPECT_EQ(m.table, 7u);
        EXPECT_EQ(m.ply, 0);
        EXPECT_EQ(m.move, "h2e2") << text;
    }
    CliApp app(batch_options());
    seat(app, proto::Role::Red);
    EXPECT_TRUE(app.handle_command("a0a5").send.empty());  // illegal: refused locally
    EXPECT_NE(app.take_output().find("cannot read move"), std::string::npos);
}

TEST(CliApp, MoveMadeUpdatesBoardAndPly) {
    CliApp app(batch_options());
    seat(app, proto::Role::Black);
    proto::MoveMade mm;
    mm.table = 7;
    mm.ply = 1;
    mm.move = "h2e2";
    mm.wxf = "C2.5";
    mm.chinese = "炮二平五";
    mm.by = RED;
    mm.fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    app.handle_server_line(server_line(mm));
    EXPECT_EQ(app.ply(), 1);
    EXPECT_EQ(app.position().side_to_move(), BLACK);
    const auto r = app.handle_command("马8进7");
    const auto m = std::get<proto::MoveRequest>(decode_one(r.send.at(0)));
    EXPECT_EQ(m.move, "h9g7");
    EXPECT_EQ(m.ply, 1);
    // Batch mode prints the server line verbatim.
    EXPECT_NE(app.take_output().find("\"type\":\"move_made\""), std::string::npos);
}

TEST(CliApp, AcceptAnswersTheLatestOffer) {
    CliApp app(batch_options());
    seat(app, proto::Role::Red);
    EXPECT_TRUE(app.handle_command("accept").send.empty());  // nothing offered yet
    proto::DrawOffered d;
    d.table = 7;
    d.by = BLACK;
    app.handle_server_line(server_line(d));
    auto r = app.handle_command("accept");
    const auto a = std::get<proto::AnswerDraw>(decode_one(r.send.at(0)));
    EXPECT_TRUE(a.accept);
    proto::TakebackRequested t;
    t.table = 7;
    t.by = BLACK;
    app.handle_server_line(server_line(t));
    r = app.handle_command("decline");
    EXPECT_FALSE(std::get<proto::AnswerTakeback>(decode_one(r.send.at(0))).accept);
}

TEST(CliApp, WaitsConsumeServerLinesInOrder) {
    CliApp app(batch_options());
    auto r = app.handle_command("wait chat from=bob timeout=3");
    ASSERT_TRUE(r.wait.has_value());
    EXPECT_EQ(r.wait->timeout_ms, 3000);
    const WaitSpec w = *r.wait;
    EXPECT_FALSE(app.try_satisfy(w));
    proto::ChatLine c;
    c.from = "alice";
    c.text = "hi";
    app.handle_server_line(server_line(c));
    EXPECT_FALSE(app.try_satisfy(w));  // wrong sender
    c.from = "bob";
    app.handle_server_line(server_line(c));
    EXPECT_TRUE(app.try_satisfy(w));
    EXPECT_FALSE(app.try_satisfy(w));  // consumed
    const WaitSpec any_chat = *app.handle_command("wait chat").wait;
    EXPECT_FALSE(app.try_satisfy(any_chat));  // alice's line came before bob's match
}

TEST(CliApp, RawSendsBytesVerbatim) {
    CliApp app(batch_options());
    const auto r = app.handle_command("raw {\"type\":\"ping\",\"id\":5}");
    EXPECT_TRUE(r.send.empty());
    EXPECT_EQ(r.send_raw, "{\"type\":\"ping\",\"id\":5}\n");
}

TEST(CliApp, ServerPingIsAnsweredSilentlyAndHelloCarriesThePassword) {
    CliOptions o;
    o.name = "tester";
    o.password = "club pw";
    CliApp app(o);  // interactive: nothing may be shown for a ping
    const auto hello = decode_one(app.hello_line());
    ASSERT_TRUE(std::holds_alternative<proto::Hello>(hello));
    EXPECT_EQ(std::get<proto::Hello>(hello).password, "club pw");
    app.take_output();
    app.handle_server_line(server_line(proto::Ping{12}));
    EXPECT_EQ(app.take_output(), "");
    const auto replies = app.take_replies();
    ASSERT_EQ(replies.size(), 1u);
    const auto pong = decode_one(replies[0]);
    ASSERT_TRUE(std::holds_alternative<proto::Pong>(pong));
    EXPECT_EQ(std::get<proto::Pong>(pong).id, 12);
    EXPECT_TRUE(app.take_replies().empty());
}

}  // namespace
}  // namespace xq::client
