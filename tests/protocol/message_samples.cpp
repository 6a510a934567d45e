#include "message_samples.h"

#include <optional>
#include <utility>

namespace xq::proto::samples {

SeatInfo seat(std::string name, int ai, bool connected) {
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

}  // namespace xq::proto::samples
