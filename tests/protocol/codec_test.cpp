#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "protocol/codec.h"

namespace xq::proto {
namespace {

SeatInfo seat(std::string name, int ai = 0, bool connected = true) {
    return SeatInfo{std::move(name), ai, connected};
}

TableInfo sample_table() {
    TableInfo t;
    t.id = 7;
    t.name = "甲 table";
    t.creator = "alice";
    t.red = seat("alice");
    t.black = seat("AI level 3", 3);
    t.spectators = 2;
    t.status = TableStatus::Playing;
    t.ply = 12;
    t.settings = TableSettings{"fischer:300+5", 90, AbandonPolicy::Ai, 4, false, std::nullopt, true};
    return t;
}

Tournament sample_tournament() {
    Tournament t;
    t.id = 3;
    t.name = "Club night";
    t.director = "alice";
    t.format = TournamentFormat::Swiss;
    t.state = TournamentState::Running;
    t.round = 2;
    t.rounds = 4;
    t.settings = TableSettings{"fischer:600+5", 60, AbandonPolicy::Claim, 5, false};
    t.forfeit_seconds = 120;
    t.entrants = {TournamentEntrant{"alice", 0, false}, TournamentEntrant{"bob", 0, true},
                  TournamentEntrant{"AI level 4", 4, false}};
    t.boards = {TournamentBoard{1, 12, 0, 2, BoardResult::Pending, ""},
                TournamentBoard{2, 0, 1, -1, BoardResult::Bye, "bye"}};
    t.games = {TournamentGame{1, 0, 1, BoardResult::RedForfeit}, TournamentGame{1, 2, -1, BoardResult::Bye},
               TournamentGame{2, 1, -1, BoardResult::Bye}};
    t.standings = {TournamentStanding{1, 1, 4, 1, 0, 2, 0}, TournamentStanding{2, 2, 2, 0, 0, 0, 0},
                   TournamentStanding{0, 3, 0, 0, 0, 2, 0}};
    return t;
}

std::vector<ClientMessage> all_client_samples() {
    return {
        Hello{"alice", 1, "00112233445566778899aabbccddeeff"},
        Ping{42},
        ListTables{},
        ListUsers{},
        ListTables{100, 25},
        ListUsers{1'000'000, 200},
        CreateTable{"my table", Role::Spectator, "9/9/9/9/9/9/9/9/9/4K4 w - - 0 1"},
        Join{7, Role::Black},
        Leave{7},
        Sync{7},
        MoveRequest{7, 12, "h2e2"},
        ChatSend{ChatScope::Table, 7, "你好 hello"},
        RequestAi{7, BLACK, 10},
        Resign{7},
        OfferDraw{7},
        AnswerDraw{7, true},
        RequestTakeback{7},
        AnswerTakeback{7, false},
        NewGame{7},
        Invite{7, "bob", Role::Black},
        AnswerInvite{7, "alice", true},
        ListGames{"alice", 120, 20},
        GetGame{42},
        Pong{42},
        ClaimWin{7},
        AnalyseGame{42},
        CancelAnalysis{42},
        WithdrawOffer{7, OfferKind::Takeback},
        NewGame{7, BLACK},
        Hello{"bob", 1, "", "секрет 密码"},
        CreateTable{"clocked", Role::Red, "", TableSettings{"asian:600/60/30", 0, AbandonPolicy::Claim, std::nullopt, true}},
        RequestAi{7, RED, 3, "fairy-stockfish"},
        Hello{"carol", 1, "", "", "correct horse 电池"},
        CreateTournament{"Club night", TournamentFormat::Swiss, 4, TableSettings{"fischer:600+5"}, {AiEntrant{4}}, 120, 0},
        JoinTournament{3},
        LeaveTournament{3},
        StartTournament{3},
        ListTournaments{},
        GetTournament{3},
        GetTournamentPgn{3, PgnNotation::Chinese, 7168, 1024},
        Register{"correct horse 电池"},
        ChangePassword{"old secret", "new secret"},
        ArbiterRequest{7, ArbiterKind::AddTime, BLACK, 60, std::nullopt, ""},
        ArbiterRequest{7, ArbiterKind::Adjudicate, std::nullopt, std::nullopt, Outcome::RedWins, "旗 fell"},
        ArbiterRequest{7, ArbiterKind::Pause},
        GetExplorer{"", {"h2e2", "h9g7"}},
        RequestHint{7},
    };
}

std::vector<ServerMessage> all_server_samples() {
    TableSnapshot snap;
    snap.table = sample_table();
    snap.you = Role::Red;
    snap.start_fen = std::string(START_FEN);
    snap.moves = {"h2e2", "h9g7"};
    snap.fen = "r1bakabnr/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2";
    snap.ply = 2;
    snap.result = ResultInfo{Outcome::BlackWins, "checkmate", "Red is checkmated"};
    snap.chat = {ChatLine{ChatScope::Table, 7, "bob", "gl"}};
    snap.clocks = Clocks{60000, 59000, BLACK};
    snap.draw_offer = RED;
    snap.takeback_offer = BLACK;
    snap.new_game_offer = RED;
    snap.paused = true;
    MoveMade mm{7, 13, "h2e2", "C2.5", "炮二平五", "fen here", BLACK, true, true, Clocks{1, 2, std::nullopt}};
    return {
        Welcome{"s-1", "00112233445566778899aabbccddeeff", "LAN server", 1, "alice", true},
        Pong{42},
        Error{ErrorCode::WrongPly, "ply 3 expected", "move", 7},
        Tables{{sample_table(), TableInfo{}}, true},
        Users{{UserInfo{"alice", 7}, UserInfo{"bob", 0}}, false},
        Tables{{sample_table()}, false, 300, 301},
        Users{{UserInfo{"carol", 0, 1530}}, true, 200, 10312},
        UserJoined{"carol"},
        UserLeft{"carol"},
        TableUpdate{sample_table()},
        TableRemoved{9},
        snap,
        SnapshotMoves{7, 1000, {"a0a1", "a9a8"}},
        PlayerJoined{7, "AI", Role::Black, 5},
        PlayerLeft{7, "bob", Role::Black, LeaveReason::Disconnected},
        PlayerReturned{7, "bob", Role::Black},
        mm,
        GameOver{7, ResultInfo{Outcome::Draw, "repetition", "Draw by repetition"}, 80},
        GameOver{7, ResultInfo{Outcome::BlackWins, "timeout", "Red ran out of time"}, 12, Clocks{0, 95400, std::nullopt}},
        ChatLine{ChatScope::Lobby, 0, "bob", "hi all"},
        AiProgress{7, BLACK, 5, 6, -35, 40, 123456},
        AiProgress{7, RED, 8, 9, 12, 50, 99, {"h2e2", "h9g7"}},
        DrawOffered{7, RED},
        DrawAnswered{7, BLACK, false},
        TakebackRequested{7, BLACK},
        TakebackAnswered{7, RED, true},
        TakebackDone{7, 2, 10, "fen"},
        NewGameOffered{7, BLACK},
        OfferWithdrawn{7, RED, OfferKind::NewGame},
        InviteReceived{7, "alice", "甲 table", Role::Black},
        InviteAnswered{7, "bob", false},
        LeftTable{7},
        Ping{9},
        SeatAbandoned{7, BLACK, "bob", true, 0},
        SeatAbandoned{7, RED, "alice", false, 5},
        Welcome{"s-2", "00112233445566778899aabbccddeeff", "LAN server", 1, "bob", false, {"fairy-stockfish", "pikafish"}},
        PlayerJoined{7, "fairy-stockfish (level 3)", Role::Red, 3, "fairy-stockfish"},
        PlayerLeft{7, "bob", Role::Black, LeaveReason::Disconnected, 60000},
        Games{{GameSummary{42, "alice", "bob", Outcome::RedWins, "checkmate", 51, 1764400000000, 1764400900000}}, true},
        GameRecord{GameSummary{42, "alice", "bob", Outcome::Ongoing, "", 2, 1764400000000, 0}, "fen", {"h2e2", "h9g7"}, ""},
        GameRecord{GameSummary{42, "alice", "bob", Outcome::Draw, "adjudication", 2, 1764400000000, 1764400900000},
                   "fen",
                   {"h2e2"},
                   "Adjudicated by carl: hall closes",
                   {GameEventInfo{1, 1764400100000, "carl paused the game (Red 4:31, Black 5:00)"}},
                   true},
        Welcome{"s-3", "00112233445566778899aabbccddeeff", "LAN server", 1, "carol", false, {}, true},
        Notice{"the server restarts at 22:00"},
        Registered{"carol"},
        PasswordChanged{},
        sample_tournament(),
        AnalysisProgress{42, 3, 52},
        AnalysisProgress{42, 10, 52, true},
        Analysis{42, 30000, {15, 20, -30000}, {"h2e2", "h9g7", ""}},
        Analysis{42, 100000, {15, 20, -30000}, {"h2e2", "h9g7", ""}, {0, 55}},
        Tournaments{{TournamentSummary{3, "Club night", "alice", TournamentFormat::RoundRobin, TournamentState::Open, 0, 0, 4}}},
        ArbiterAction{7, "dora", ArbiterKind::Pause, std::nullopt, std::nullopt, std::nullopt, "", 12, true,
                      Clocks{1000, 2000, std::nullopt, true}},
        ArbiterAction{7, "operator", ArbiterKind::Cancel, std::nullopt, std::nullopt, std::nullopt, "wrong pairing", 0},
        TournamentPgn{3, PgnNotation::Wxf, 0, 400, "0123456789abcdef", "[Event \"Club night\"]\n1. C2.5 H8+7", true},
        Explorer{std::string(START_FEN), {ExplorerMove{"h2e2", ExplorerStats{12, 5, 4, 3}, ExplorerStats{3, 1, 0, 0}}}, true},
        Hint{7, 12, "h2e2", -35, 9},
        HintUsed{7, 12, RED, "alice"},
        GameRecord{GameSummary{44, "ann", "AI level 3", Outcome::RedWins, "resignation", 3, 1764400000000, 1764400900000},
                   "fen",
                   {"h2e2", "h9g7", "h0g2"},
                   "Black resigns",
                   {GameEventInfo{2, 1764400100000, "ann (Red) was shown h0g2", "hint"}},
                   false,
                   1,
                   0},
    };
}

TEST(Codec, EveryClientMessageRoundTrips) {
    std::set<std::string_view> types;
    for (const ClientMessage& m : all_client_samples()) {
        const std::string text = encode(m);
        SCOPED_TRACE(text);
        const auto d = decode_client(text);
        ASSERT_TRUE(d.ok()) << d.error().message;
        EXPECT_EQ(d.value().index(), m.index());
        EXPECT_EQ(encode(d.value()), text);
        EXPECT_EQ(std::visit([](const auto& x) { return encode_line_of(x); }, m), encode_line(m));
        types.insert(type_name(m));
    }
    EXPECT_EQ(types.size(), std::variant_size_v<ClientMessage>);
}

TEST(Codec, EveryServerMessageRoundTrips) {
    std::set<std::size_t> kinds;
    for (const ServerMessage& m : all_server_samples()) {
        const std::string text = encode(m);
        SCOPED_TRACE(text);
        const auto d = decode_server(text);
        ASSERT_TRUE(d.ok()) << d.error().message;
        EXPECT_EQ(d.value().index(), m.index());
        EXPECT_EQ(encode(d.value()), text);
        EXPECT_EQ(std::visit([](const auto& x) { return encode_line_of(x); }, m), encode_line(m));
        kinds.insert(m.index());
    }
    EXPECT_EQ(kinds.size(), std::variant_size_v<ServerMessage>);
}

TEST(Codec, DecodesTheDocumentedMoveLine) {
    const auto d = decode_client(R"({"type":"move","table":7,"ply":12,"move":"h2e2"})");
    ASSERT_TRUE(d.ok());
    const auto& m = std::get<MoveRequest>(d.value());
    EXPECT_EQ(m.table, 7u);
    EXPECT_EQ(m.ply, 12);
    EXPECT_EQ(m.move, "h2e2");
}

TEST(Codec, DecodesTheDocumentedArbiterLines) {
    const auto d = decode_client(R"({"type":"arbiter","table":12,"action":"add_time","side":"black","seconds":60})");
    ASSERT_TRUE(d.ok());
    const auto& m = std::get<ArbiterRequest>(d.value());
    EXPECT_EQ(m.action, ArbiterKind::AddTime);
    EXPECT_EQ(m.side, std::optional<Color>(BLACK));
    EXPECT_EQ(m.seconds, std::optional<int>(60));
    // Out of range and unknown actions are bad_field when the line is read.
    for (const char* bad : {R"({"type":"arbiter","table":12,"action":"add_time","side":"black","seconds":0})",
                            R"({"type":"arbiter","table":12,"action":"add_time","side":"black","seconds":3601})",
                            R"({"type":"arbiter","table":12,"action":"freeze"})",
                            R"({"type":"arbiter","table":12,"action":"adjudicate","result":"2-0","reason":"x"})"}) {
        const auto e = decode_client(bad);
        ASSERT_FALSE(e.ok()) << bad;
        EXPECT_EQ(e.error().code, ErrorCode::BadField) << bad;
    }
    const auto a = decode_server(
        R"({"type":"arbiter_action","table":12,"by":"dora","action":"add_time","side":"black","seconds":60,"ply":31,)"
        R"("clocks":{"red_ms":240000,"black_ms":95000,"running":"black"}})");
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(std::get<ArbiterAction>(a.value()).clocks->black_ms, 95000);
}

TEST(Codec, OptionalFieldsTakeDefaults) {
    const auto d = decode_client(R"({"type":"create_table"})");
    ASSERT_TRUE(d.ok());
    const auto& c = std::get<CreateTable>(d.value());
    EXPECT_EQ(c.as, Role::Red);
    EXPECT_TRUE(c.name.empty());
    EXPECT_TRUE(c.fen.empty());
    const auto h = decode_client(R"({"type":"hello","name":"bob","version":1,"extra":[1,2]})");
    ASSERT_TRUE(h.ok());  // unknown fields are ignored
    EXPECT_EQ(std::get<Hello>(h.value()).name, "bob");
}

TEST(Codec, TableSettingsDecodeWithRangesAndDefaults) {
    const auto d = decode_client(
        R"({"type":"create_table","settings":{"clock":"fischer:600+10","grace":0,"abandon":"ai","hold_level":7,"takebacks":false}})");
    ASSERT_TRUE(d.ok()) << d.error().message;
    const auto& s = std::get<CreateTable>(d.value()).settings;
    EXPECT_EQ(s.clock, "fischer:600+10");
    ASSERT_TRUE(s.grace.has_value());
    EXPECT_EQ(*s.grace, 0);  // zero is a real setting, not "absent"
    EXPECT_EQ(s.abandon, AbandonPolicy::Ai);
    EXPECT_EQ(s.hold_level, 7);
    EXPECT_EQ(s.takebacks, false);
    // Encoding keeps grace 0 and takebacks false (they differ from "absent").
    const std::string text = encode(d.value());
    EXPECT_NE(text.find("\"grace\":0"), std::string::npos) << text;
    EXPECT_NE(text.find("\"takebacks\":false"), std::string::npos) << text;

    const auto none = decode_client(R"({"type":"create_table"})");
    ASSERT_TRUE(none.ok());
    EXPECT_EQ(std::get<CreateTable>(none.value()).settings, TableSettings{});

    for (const char* bad : {R"({"type":"create_table","settings":{"grace":3601}})",
                            R"({"type":"create_table","settings":{"grace":-1}})",
                            R"({"type":"create_table","settings":{"abandon":"robot"}})",
                            R"({"type":"create_table","settings":{"hold_level":0}})",
                            R"({"type":"create_table","settings":{"clock":5}})",
                            R"({"type":"create_table","settings":"fischer"})"}) {
        const auto e = decode_client(bad);
        ASSERT_FALSE(e.ok()) << bad;
        EXPECT_EQ(e.error().code, ErrorCode::BadField) << bad;
        EXPECT_EQ(e.error().type, "create_table");
    }
}

TEST(Codec, ServerPingAndSeatCountdownDecode) {
    const auto p = decode_server(R"({"type":"ping","id":5})");
    ASSERT_TRUE(p.ok());
    EXPECT_EQ(std::get<Ping>(p.value()).id, 5);
    const auto pong = decode_client(R"({"type":"pong","id":5})");
    ASSERT_TRUE(pong.ok());
    EXPECT_EQ(std::get<Pong>(pong.value()).id, 5);
    const auto left = decode_server(
        R"({"type":"player_left","table":3,"name":"bob","role":"black","reason":"disconnected","grace_ms":45000})");
    ASSERT_TRUE(left.ok());
    EXPECT_EQ(std::get<PlayerLeft>(left.value()).grace_ms, 45000);
    const auto seat = decode_server(
        R"({"type":"table_update","table":{"id":3,"name":"t","creator":"a","spectators":0,"status":"playing","ply":4,)"
        R"("black":{"name":"bob","ai_level":0,"connected":false,"abandoned":true,"hold_level":5}}})");
    ASSERT_TRUE(seat.ok()) << seat.error().message;
    const auto& black = std::get<TableUpdate>(seat.value()).table.black;
    ASSERT_TRUE(black.has_value());
    EXPECT_TRUE(black->abandoned);
    EXPECT_EQ(black->hold_level, 5);
    EXPECT_FALSE(black->grace_ms.has_value());
}

TEST(Codec, SeatlessTableOmitsSeats) {
    const std::string text = encode(ServerMessage{TableUpdate{TableInfo{3, "t", "c", {}, {}, 0, TableStatus::Waiting, 0}}});
    EXPECT_EQ(text.find("\"red\""), std::string::npos);
    const auto d = decode_server(text);
    ASSERT_TRUE(d.ok());
    EXPECT_FALSE(std::get<TableUpdate>(d.value()).table.red.has_value());
}

TEST(Codec, EncodeLineEndsWithOneNewline) {
    const std::string line = encode_line(ClientMessage{Ping{1}});
    ASSERT_FALSE(line.empty());
    EXPECT_EQ(line.back(), '\n');
    EXPECT_EQ(line.find('\n'), line.size() - 1);
}

struct BadCase {
    std::string line;
    ErrorCode code;
};

TEST(Codec, BadInputGivesTypedErrors) {
    std::string deep = R"({"type":"ping","x":)";
    for (int i = 0; i < 20; ++i) deep += "[";
    for (int i = 0; i < 20; ++i) deep += "]";
    deep += "}";
    const std::vector<BadCase> cases = {
        {"not json", ErrorCode::BadJson},
        {"{\"type\":\"ping\"", ErrorCode::BadJson},
        {"[1,2,3]", ErrorCode::BadJson},
        {"\"hello\"", ErrorCode::BadJson},
        {"{}", ErrorCode::MissingType},
        {R"({"type":5})", ErrorCode::MissingType},
        {R"({"type":"launch_missiles"})", ErrorCode::UnknownType},
        {R"({"type":"welcome","session":"x"})", ErrorCode::UnknownType},  // server-only type
        {R"({"type":"move","table":7,"ply":"12","move":"h2e2"})", ErrorCode::BadField},
        {R"({"type":"move","table":7,"move":"h2e2"})", ErrorCode::BadField},
        {R"({"type":"move","table":-1,"ply":0,"move":"h2e2"})", ErrorCode::BadField},
        {R"({"type":"move","table":7,"ply":1.5,"move":"h2e2"})", ErrorCode::BadField},
        {R"({"type":"move","table":99999999999,"ply":0,"move":"h2e2"})", ErrorCode::BadField},
        {R"({"type":"join","table":7,"as":"referee"})", ErrorCode::BadField},
        {R"({"type":"request_ai","table":7,"seat":"red","level":11})", ErrorCode::BadField},
        {R"({"type":"request_ai","table":7,"seat":"red","level":0})", ErrorCode::BadField},
        {R"({"type":"answer_draw","table":7,"accept":"yes"})", ErrorCode::BadField},
        {R"({"type":"hello","name":"a","version":1,"resume":3})", ErrorCode::BadField},
        {"{\"type\":\"chat\",\"scope\":\"lobby\",\"text\":\"\xFF\"}", ErrorCode::BadUtf8},
        {deep, ErrorCode::TooDeep},
        {std::string(MAX_LINE_BYTES + 1, ' '), ErrorCode::LineTooLong},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.line.substr(0, 80));
        const auto d = decode_client(c.line);
        ASSERT_FALSE(d.ok());
        EXPECT_EQ(d.error().code, c.code) << d.error().message;
        EXPECT_FALSE(d.error().message.empty());
    }
}

TEST(Codec, FieldErrorsNameTheRequestAndField) {
    const auto d = decode_client(R"({"type":"move","table":7,"ply":"x","move":"h2e2"})");
    ASSERT_FALSE(d.ok());
    EXPECT_EQ(d.error().type, "move");
    EXPECT_NE(d.error().message.find("ply"), std::string::npos);
    const auto n = decode_server(R"({"type":"tables","tables":[{"id":1}]})");
    ASSERT_FALSE(n.ok());
    EXPECT_NE(n.error().message.find("tables[0].name"), std::string::npos) << n.error().message;
}

// Issue #15, point 6: an out-of-range list_games.limit is refused, not silently clamped.
TEST(Codec, ListGamesLimitOutOfRangeIsABadField) {
    for (const char* line : {R"({"type":"list_games","limit":1000})", R"({"type":"list_games","limit":-5})",
                             R"({"type":"list_games","limit":51})"}) {
        const auto d = decode_client(line);
        ASSERT_FALSE(d.ok()) << line;
        EXPECT_EQ(d.error().code, ErrorCode::BadField) << line;
        EXPECT_NE(d.error().message.find("limit"), std::string::npos) << d.error().message;
    }
    EXPECT_TRUE(decode_client(R"({"type":"list_games","limit":50})").ok());
    EXPECT_TRUE(decode_client(R"({"type":"list_games","limit":0})").ok());
}

// The lobby's pages (PROTOCOL.md, Lobby lists): offset 0..1,000,000, limit 0..100 tables or
// 0..200 users; anything else (negative, too large, not an integer) is bad_field.
TEST(Codec, ListPagesOutOfRangeAreBadFields) {
    for (const char* line :
         {R"({"type":"list_users","offset":-1})", R"({"type":"list_users","offset":1000001})",
          R"({"type":"list_users","limit":201})", R"({"type":"list_users","limit":-1})",
          R"({"type":"list_users","offset":"5"})", R"({"type":"list_users","offset":1.5})",
          R"({"type":"list_tables","limit":101})", R"({"type":"list_tables","offset":-100})",
          R"({"type":"list_tables","limit":true})", R"({"type":"list_tables","offset":99999999999})"}) {
        const auto d = decode_client(line);
        ASSERT_FALSE(d.ok()) << line;
        EXPECT_EQ(d.error().code, ErrorCode::BadField) << line;
        EXPECT_TRUE(d.error().message.find("offset") != std::string::npos ||
                    d.error().message.find("limit") != std::string::npos)
            << d.error().message;
    }
    const auto users = decode_client(R"({"type":"list_users","offset":1000000,"limit":200})");
    ASSERT_TRUE(users.ok());
    EXPECT_EQ(std::get<ListUsers>(users.value()).offset, 1'000'000);
    EXPECT_EQ(std::get<ListUsers>(users.value()).limit, 200);
    const auto tables = decode_client(R"({"type":"list_tables","limit":100})");
    ASSERT_TRUE(tables.ok());
    EXPECT_EQ(std::get<ListTables>(tables.value()).offset, 0);
    EXPECT_EQ(std::get<ListTables>(tables.value()).limit, 100);
}

TEST(Codec, NestingAtTheLimitIsAccepted) {
    // Depth 1 (the object) + 7 arrays = MAX_JSON_DEPTH.
    std::string line = R"({"type":"ping","x":)";
    for (int i = 1; i < MAX_JSON_DEPTH; ++i) line += "[";
    for (int i = 1; i < MAX_JSON_DEPTH; ++i) line += "]";
    line += "}";
    EXPECT_TRUE(decode_client(line).ok());
    // Brackets inside strings do not count.
    EXPECT_TRUE(decode_client(R"({"type":"chat","scope":"lobby","text":"[[[[[[[[[[[[{{{{{{\"]]"})").ok());
}

TEST(Codec, ErrorCodeNamesAreUniqueAndRoundTrip) {
    std::set<std::string_view> names;
    for (int i = 0; i < ERROR_CODE_COUNT; ++i) {
        const auto c = static_cast<ErrorCode>(i);
        const auto n = error_code_name(c);
        EXPECT_TRUE(names.insert(n).second) << n;
        EXPECT_EQ(error_code_from_name(n), c);
    }
    EXPECT_FALSE(error_code_from_name("nope").has_value());
}

TEST(Codec, UnknownErrorCodeFromANewerServerDecodesAsInternal) {
    const auto d = decode_server(R"({"type":"error","code":"brand_new","message":"m","request":"x"})");
    ASSERT_TRUE(d.ok());
    EXPECT_EQ(std::get<Error>(d.value()).code, ErrorCode::Internal);
}

TEST(Codec, NamesAreChecked) {
    EXPECT_EQ(check_name("alice"), "");
    EXPECT_EQ(check_name("小明"), "");
    EXPECT_NE(check_name(""), "");
    EXPECT_NE(check_name(" alice"), "");
    EXPECT_NE(check_name("a\tb"), "");
    EXPECT_NE(check_name(std::string(MAX_NAME_CODE_POINTS + 1, 'x')), "");
    EXPECT_EQ(check_name(std::string(MAX_NAME_CODE_POINTS, 'x')), "");
}

TEST(Codec, IccsSyntax) {
    EXPECT_TRUE(is_iccs_syntax("h2e2"));
    EXPECT_TRUE(is_iccs_syntax("a0i9"));
    EXPECT_FALSE(is_iccs_syntax("j2e2"));
    EXPECT_FALSE(is_iccs_syntax("h2e"));
    EXPECT_FALSE(is_iccs_syntax("H2-E2"));
}

TEST(Codec, LongestSnapshotFitsInALine) {
    // The worst snapshot the server may send: full move chunk, full chat budget, long names.
    TableSnapshot s;
    s.table = sample_table();
    s.table.name = std::string(MAX_TABLE_NAME_CODE_POINTS, '\x7e');
    s.table.red = seat(std::string(MAX_NAME_CODE_POINTS * 3, 'r'));
    s.table.black = seat(std::string(MAX_NAME_CODE_POINTS * 3, 'b'));
    s.start_fen = std::string(START_FEN);
    s.fen = std::string(START_FEN);
    s.moves.assign(SNAPSHOT_MOVES_PER_LINE, "h2e2");
    s.result = ResultInfo{Outcome::Draw, "move_limit", std::string(200, 't')};
    std::size_t chat_bytes = 0;
    while (s.chat.size() < SNAPSHOT_CHAT_LINES && chat_bytes < SNAPSHOT_CHAT_BYTES) {
        s.chat.push_back(ChatLine{ChatScope::Table, 7, std::string(MAX_NAME_CODE_POINTS * 3, 'n'),
                                  std::string(200, '"')});  // quotes double when escaped
        chat_bytes += 200 + MAX_NAME_CODE_POINTS * 3;
    }
    s.clocks = Clocks{1000000, 1000000, RED};
    EXPECT_LE(encode(ServerMessage{s}).size(), MAX_LINE_BYTES);
}

TEST(Codec, LargestGameRecordFitsInALine) {
    // The most a `game_record` holds: the longest names, moves and result text, and events up
    // to their caps, all of quotes (which double when escaped).
    GameRecord r;
    r.game = GameSummary{9000000000, std::string(MAX_NAME_CODE_POINTS * 3, 'r'), std::string(MAX_NAME_CODE_POINTS * 3, 'b'),
                         Outcome::Draw, "insufficient_material", 1 << 30, 1764400000000, 1764400900000};
    r.game.red_rating = r.game.black_rating = MAX_RATING;
    r.start_fen = std::string(START_FEN);
    r.moves.assign(SNAPSHOT_MOVES_PER_LINE, "h2e2");
    r.text = std::string(512, '"');
    const std::size_t per_event = GAME_EVENTS_BYTES / GAME_EVENTS_PER_LINE;
    while (r.events.size() < GAME_EVENTS_PER_LINE)
        r.events.push_back(GameEventInfo{1 << 30, 1764400900000, std::string(per_event, '"')});
    r.more_events = true;
    const std::string line = encode(ServerMessage{r});
    EXPECT_LE(line.size(), MAX_LINE_BYTES);
    const auto back = decode_server(line);
    ASSERT_TRUE(back.ok()) << back.error().message;
}

TEST(Codec, LargestTournamentFitsInALine) {
    // The most a `tournament` line can hold: the entrant cap, four-byte characters in every
    // name, the longest round-robin's games (with byes), every board with a long reason.
    const std::string glyph = "\xF0\x9F\x90\x89";  // four bytes of UTF-8
    auto long_name = [&](std::size_t code_points) {
        std::string s;
        for (std::size_t i = 0; i < code_points; ++i) s += glyph;
        return s;
    };
    Tournament t = sample_tournament();
    t.id = 4000000000u;
    t.name = long_name(MAX_TOURNAMENT_NAME_CODE_POINTS);
    t.director = long_name(MAX_NAME_CODE_POINTS);
    t.round = t.rounds = MAX_TOURNAMENT_ROUNDS;
    t.settings = TableSettings{"asian:3600/3600/3600", 3600, AbandonPolicy::Claim, 10, false};
    t.forfeit_seconds = MAX_FORFEIT_SECONDS;
    t.spectator_delay = MAX_SPECTATOR_DELAY;
    t.entrants.clear();
    t.boards.clear();
    t.games.clear();
    t.standings.clear();
    const int n = MAX_TOURNAMENT_ENTRANTS;
    for (int i = 0; i < n; ++i) {
        t.entrants.push_back(TournamentEntrant{long_name(MAX_NAME_CODE_POINTS), 10, true});
        t.standings.push_back(TournamentStanding{i, i + 1, 99999, 99999, 99999, 99999, 99999});
    }
    for (int b = 1; b <= n / 2; ++b)
        t.boards.push_back(TournamentBoard{b, 4000000000u, n - 1, n - 1, BoardResult::DoubleForfeit,
                                           "insufficient_material"});
    for (int r = 1; r <= MAX_TOURNAMENT_ROUNDS; ++r)
        for (int b = 0; b < n / 2; ++b) t.games.push_back(TournamentGame{r, n - 1, n - 1, BoardResult::DoubleForfeit});
    const std::string line = encode(ServerMessage{t});
    EXPECT_LE(line.size(), MAX_LINE_BYTES);
    const auto back = decode_server(line);
    ASSERT_TRUE(back.ok()) << back.error().message;
}

TEST(Codec, TournamentRequestsAreChecked) {
    auto bad = [](const std::string& line) {
        const auto d = decode_client(line);
        return !d.ok() && d.error().code == ErrorCode::BadField;
    };
    EXPECT_TRUE(bad(R"({"type":"create_tournament","format":"knockout"})"));
    EXPECT_TRUE(bad(R"({"type":"create_tournament"})"));  // format is required
    EXPECT_TRUE(bad(R"({"type":"create_tournament","format":"swiss","rounds":16})"));
    EXPECT_TRUE(bad(R"({"type":"create_tournament","format":"swiss","rounds":3,"ai":[{"level":11}]})"));
    EXPECT_TRUE(bad(R"({"type":"create_tournament","format":"swiss","rounds":3,"forfeit_seconds":-1})"));
    EXPECT_TRUE(bad(R"({"type":"join_tournament","tournament":"3"})"));
    EXPECT_TRUE(decode_client(R"({"type":"create_tournament","format":"round_robin"})").ok());
    EXPECT_TRUE(bad(R"({"type":"get_tournament_pgn","tournament":3,"notation":"san"})"));
    EXPECT_TRUE(bad(R"({"type":"get_tournament_pgn","tournament":3,"offset":-1})"));
    EXPECT_TRUE(bad(R"({"type":"get_tournament_pgn","tournament":3,"limit":7169})"));
    EXPECT_TRUE(bad(R"({"type":"get_tournament_pgn"})"));
    EXPECT_TRUE(decode_client(R"({"type":"get_tournament_pgn","tournament":3})").ok());
}

TEST(Codec, FullestTournamentPgnPageFitsInALine) {
    // A page of the most escaping PGN text can need: every byte a quote or a backslash
    // (each written as two), at the largest offsets and a long digest.
    for (const char c : {'"', '\\', '\n'}) {
        TournamentPgn p{4000000000u, PgnNotation::Chinese, std::int64_t(MAX_TOURNAMENT_PGN_BYTES),
                        std::int64_t(MAX_TOURNAMENT_PGN_BYTES), "ffffffffffffffff",
                        std::string(TOURNAMENT_PGN_PAGE_BYTES, c), true};
        const std::string line = encode(ServerMessage{p});
        EXPECT_LE(line.size(), MAX_LINE_BYTES);
        const auto back = decode_server(line);
        ASSERT_TRUE(back.ok()) << back.error().message;
        EXPECT_EQ(std::get<TournamentPgn>(back.value()).text, p.text);
    }
}

}  // namespace
TEST(Codec, DuplicateKeysAndAByteOrderMarkAreBadJson) {
    for (const std::string line : {"{\"type\":\"ping\",\"type\":\"pong\",\"id\":1}",
                                   "{\"type\":\"ping\",\"id\":1,\"id\":2}",
                                   "{\"type\":\"create_table\",\"settings\":{\"grace\":1,\"grace\":2}}",
                                   "\xEF\xBB\xBF{\"type\":\"ping\",\"id\":1}"}) {
        const auto d = decode_client(line);
        ASSERT_FALSE(d.ok()) << line;
        EXPECT_EQ(d.error().code, ErrorCode::BadJson) << line;
    }
    // One key per object: the same name in two objects is fine.
    EXPECT_TRUE(decode_client("{\"type\":\"create_table\",\"name\":\"x\",\"settings\":{\"name\":1}}").ok());
}

}  // namespace xq::proto
